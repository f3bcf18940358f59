import { useState, type FormEvent } from 'react';
import type { AdminListingDto } from '@market/contracts';
import { CANCEL_REASON_MAX, cancelReasonProblem } from '@market/domain';
import { ReasonDialog } from '../../components/dialog/ReasonDialog';
import { useReasonField } from '../../components/dialog/use-reason-field';
import { errorDetail } from '../../lib/error-detail';
import { useAdminCancelListingMutation } from './admin.api';

/**
 * An admin's cancellation of a listing with a reason (ADR 0042): the sale ends for good, its bids are void, and every
 * bidder and the seller are emailed the reason.
 */
export function CancelListingDialog({ listing, onClose, onCancelled }: { listing: AdminListingDto; onClose: () => void; onCancelled: () => void }) {
  const { value: reason, setProblem, field } = useReasonField('Reason (sent to the bidders and the seller)', CANCEL_REASON_MAX);
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
    <ReasonDialog
      titleId="cancel-listing-title"
      title="Cancel listing"
      className="cancel-listing-dialog"
      onClose={onClose}
      intro={
        <>
          <p>
            <strong>{listing.title}</strong>
          </p>
          <p className="muted">
            {listing.bid_count > 0
              ? `Its ${listing.bid_count} bid${listing.bid_count === 1 ? '' : 's'} become void. Every bidder and the seller are emailed the reason below. This cannot be undone.`
              : 'The seller is emailed the reason below. This cannot be undone.'}
          </p>
        </>
      }
      reason={field}
      failure={failure}
      submit={{ label: 'Cancel listing', busyLabel: 'Cancelling...', busy: isLoading, tone: 'danger' }}
      keepLabel="Keep it"
      onSubmit={submit}
    />
  );
}
