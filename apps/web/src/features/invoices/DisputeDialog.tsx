import { useState, type FormEvent } from 'react';
import type { InvoiceDto } from '@market/contracts';
import { DISPUTE_MESSAGE_MAX } from '@market/domain';
import { ReasonDialog } from '../../components/dialog/ReasonDialog';
import { SelectField } from '../../components/form/SelectField';
import { useOpenDisputeMutation } from '../../api/invoices.api';
import { errorDetail } from '../../lib/error-detail';
import { DISPUTE_REASON_OPTIONS, disputeRequest, validateDispute, type DisputeErrors } from './transfer';

/** The buyer's dispute (ADR 0039): a reason from the fixed list and what went wrong; the seller is told by email. */
export function DisputeDialog({ invoice, onClose, onOpened }: { invoice: InvoiceDto; onClose: () => void; onOpened: (message: string) => void }) {
  const [draft, setDraft] = useState({ reason: '', message: '' });
  const [errors, setErrors] = useState<DisputeErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [open, { isLoading }] = useOpenDisputeMutation();
  const edit = (field: 'reason' | 'message') => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateDispute(draft);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await open({ id: invoice.id, request: disputeRequest(draft) }).unwrap();
      onOpened(answer.message);
    } catch (error) {
      setFailure(errorDetail(error, 'Could not open the dispute. Please try again.'));
    }
  };

  return (
    <ReasonDialog
      titleId="dispute-title"
      title="Open a dispute"
      className="dispute-dialog"
      onClose={onClose}
      intro={
        <p className="muted">
          {invoice.website_title} · {invoice.invoice_number}. Your payment stays held while an admin reviews the transfer with you and the seller.
        </p>
      }
      before={
        <SelectField label="What went wrong?" name="reason" value={draft.reason} error={errors.reason} onChange={edit('reason')} required autoFocus>
          <option value="">Choose a reason</option>
          {DISPUTE_REASON_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
      }
      reason={{ label: 'Describe the problem', name: 'message', rows: 6, maxLength: DISPUTE_MESSAGE_MAX, value: draft.message, error: errors.message, onChange: edit('message') }}
      after={
        <p className="muted small dispute-count">
          {draft.message.trim().length} / {DISPUTE_MESSAGE_MAX}
        </p>
      }
      failure={failure}
      submit={{ label: 'Open dispute', busyLabel: 'Opening...', busy: isLoading, tone: 'danger' }}
      keepLabel="Cancel"
      onSubmit={submit}
    />
  );
}
