import { useState, type FormEvent } from 'react';
import type { AdminTransactionDto } from '@market/contracts';
import { CANCEL_REASON_MAX, cancelReasonProblem } from '@market/domain';
import { ReasonDialog } from '../../components/dialog/ReasonDialog';
import { useReasonField } from '../../components/dialog/use-reason-field';
import { errorDetail } from '../../lib/error-detail';
import { useCancelSaleMutation } from '../../api/admin-billing.api';

/**
 * An admin's cancel of an unpaid sale with a reason (ADR 0043): the invoice is cancelled, the listing goes back on
 * sale, both parties are emailed the reason, and the buyer gets a strike only when the admin ticks it.
 */
export function CancelSaleDialog({ row, onClose, onCancelled }: { row: AdminTransactionDto; onClose: () => void; onCancelled: () => void }) {
  const { value: reason, setProblem, field } = useReasonField('Reason (sent to the buyer and the seller)', CANCEL_REASON_MAX);
  const [strike, setStrike] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [cancel, { isLoading }] = useCancelSaleMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = cancelReasonProblem(reason) ? 'Give the reason the buyer and the seller will read (10 to 500 characters)' : null;
    setProblem(found);
    setFailure(null);
    if (found) return;
    try {
      await cancel({ id: row.id, request: { reason: reason.trim(), strike } }).unwrap();
      onCancelled();
    } catch (error) {
      setFailure(errorDetail(error, 'Could not cancel the sale. Please try again.'));
    }
  };

  return (
    <ReasonDialog
      titleId="cancel-sale-title"
      title="Cancel sale"
      className="cancel-sale-dialog"
      onClose={onClose}
      intro={
        <>
          <p>
            <strong>{row.listing_title}</strong> ({row.transaction_id})
          </p>
          <p className="muted">
            The invoice is cancelled and the listing goes back on sale. {row.buyer.username} and {row.seller.username} are emailed the reason below. This
            cannot be undone.
          </p>
        </>
      }
      reason={field}
      after={
        <label className="checkbox-row">
          <input type="checkbox" name="strike" checked={strike} onChange={(event) => setStrike(event.target.checked)} /> Count it as an unpaid purchase
          against the buyer (two in 90 days put their buying on hold)
        </label>
      }
      failure={failure}
      submit={{ label: 'Cancel sale', busyLabel: 'Cancelling...', busy: isLoading, tone: 'danger' }}
      keepLabel="Keep it"
      onSubmit={submit}
    />
  );
}
