import { useState, type FormEvent } from 'react';
import type { AdminPaymentIntentDto } from '@market/contracts';
import { RESOLUTION_NOTE_MAX, RESOLUTION_NOTE_MIN } from '@market/domain';
import { ReasonDialog } from '../../components/dialog/ReasonDialog';
import { useResolveDisputeMutation } from '../../api/payments.api';
import { errorDetail } from '../../lib/error-detail';
import { formatMoney } from '../../lib/money';

type Action = 'release' | 'refund';

/** Checks the admin's decision as the server does: an action and a note both parties will read (ADR 0039). */
export function resolutionErrors(action: string, note: string): { action?: string; note?: string } {
  const errors: { action?: string; note?: string } = {};
  if (action !== 'release' && action !== 'refund') errors.action = 'Choose release or refund';
  const length = note.trim().length;
  if (length < RESOLUTION_NOTE_MIN) errors.note = `Write a note of at least ${RESOLUTION_NOTE_MIN} characters explaining the decision`;
  else if (length > RESOLUTION_NOTE_MAX) errors.note = `Keep the note under ${RESOLUTION_NOTE_MAX} characters`;
  return errors;
}

/** The admin's decision on a dispute: release the held funds or refund them, with a required note (ADR 0039). */
export function ResolveDisputeDialog({ row, onClose, onResolved }: { row: AdminPaymentIntentDto; onClose: () => void; onResolved: (message: string) => void }) {
  const [action, setAction] = useState<Action | ''>('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ action?: string; note?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [resolve, { isLoading }] = useResolveDisputeMutation();
  const dispute = row.dispute;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = resolutionErrors(action, note);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0 || !action) return;
    try {
      const answer = await resolve({ invoice_id: row.invoice_id, request: { action, note: note.trim() } }).unwrap();
      onResolved(answer.message);
    } catch (error) {
      setFailure(errorDetail(error, 'Could not resolve the dispute. Please try again.'));
    }
  };

  return (
    <ReasonDialog
      titleId="resolve-dispute-title"
      title="Resolve dispute"
      className="resolve-dispute-dialog"
      onClose={onClose}
      intro={
        <>
          <p className="muted">
            {row.metadata.website_title} · {row.invoice_number} · {formatMoney(row.amount)} held
          </p>
          {dispute && (
            <div className="alert alert-warning resolve-dispute-claim">
              <strong>{dispute.reason_label}</strong>
              <p>“{dispute.message}”</p>
            </div>
          )}
        </>
      }
      before={
        <fieldset className="field resolve-dispute-actions" aria-invalid={Boolean(errors.action)}>
          <legend>Decision</legend>
          <label>
            <input type="radio" name="action" value="release" checked={action === 'release'} onChange={() => setAction('release')} /> Release the funds to the seller
          </label>
          <label>
            <input type="radio" name="action" value="refund" checked={action === 'refund'} onChange={() => setAction('refund')} /> Refund the buyer
          </label>
          {errors.action && <small className="field-error">{errors.action}</small>}
        </fieldset>
      }
      reason={{
        label: 'Note to both parties',
        name: 'note',
        rows: 4,
        maxLength: RESOLUTION_NOTE_MAX,
        value: note,
        error: errors.note,
        onChange: (value) => {
          setNote(value);
          setErrors((e) => ({ ...e, note: undefined }));
        },
      }}
      failure={failure}
      submit={{ label: 'Resolve dispute', busyLabel: 'Resolving...', busy: isLoading, tone: 'primary' }}
      keepLabel="Cancel"
      onSubmit={submit}
    />
  );
}
