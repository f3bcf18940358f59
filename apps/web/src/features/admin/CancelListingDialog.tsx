import { useState, type FormEvent } from 'react';
import type { AdminListingDto } from '@market/contracts';
import { CANCEL_REASON_MAX, cancelReasonProblem } from '@market/domain';
import { ModalDialog } from '../../components/dialog/ModalDialog';
import { TextAreaField } from '../../components/form/TextAreaField';
import { errorDetail } from '../../lib/error-detail';
import { useAdminCancelListingMutation } from './admin.api';

/**
 * An admin's cancellation of a listing with a reason (ADR 0042): the sale ends for good, its bids are void, and every
 * bidder and the seller are emailed the reason.
 */
export function CancelListingDialog({ listing, onClose, onCancelled }: { listing: AdminListingDto; onClose: () => void; onCancelled: () => void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [cancel, { isLoading }] = useAdminCancelListingMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = cancelReasonProblem(reason);
    setProblem(found);
    setFailure(null);
    if (found) return;
    try {
      await cancel({ id: listing.id, reason: reason.trim() }).unwrap();
      onCancelled();
    } catch (error) {
      setFailure(errorDetail(error, 'Could not cancel the listing. Please try again.'));
    }
  };

  return (
    <ModalDialog titleId="cancel-listing-title" title="Cancel listing" onClose={onClose} className="cancel-listing-dialog">
      <p>
        <strong>{listing.title}</strong>
      </p>
      <p className="muted">
        {listing.bid_count > 0
          ? `Its ${listing.bid_count} bid${listing.bid_count === 1 ? '' : 's'} become void. Every bidder and the seller are emailed the reason below. This cannot be undone.`
          : 'The seller is emailed the reason below. This cannot be undone.'}
      </p>
      <form onSubmit={submit} noValidate>
        <TextAreaField
          label="Reason (sent to the bidders and the seller)"
          name="reason"
          rows={4}
          maxLength={CANCEL_REASON_MAX}
          value={reason}
          error={problem ?? undefined}
          onChange={(value) => {
            setReason(value);
            setProblem(null);
          }}
          required
        />
        {failure && (
          <p className="alert alert-error" role="alert">
            {failure}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="submit" className="btn btn-danger" disabled={isLoading}>
            {isLoading ? 'Cancelling...' : 'Cancel listing'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Keep it
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
