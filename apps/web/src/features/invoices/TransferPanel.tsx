import type { InvoiceDto } from '@market/contracts';
import { disputeSummary, showsTransfer, stepText } from './transfer';

export interface TransferPanelProps {
  invoice: InvoiceDto;
  busy: boolean;
  onMarkStarted: () => void;
  onConfirmReceived: () => void;
  onDispute: () => void;
}

/**
 * The transfer checklist of an invoice whose funds are held (ADR 0039): the seller's "transfer started", the buyer's
 * "received", each with its time, the buttons of the reader's own steps, and the dispute with its outcome and note.
 */
export function TransferPanel({ invoice, busy, onMarkStarted, onConfirmReceived, onDispute }: TransferPanelProps) {
  if (!showsTransfer(invoice)) return null;
  const { transfer, dispute } = invoice;
  const number = invoice.invoice_number;
  // Once the funds are no longer held, an undone step is simply not done: nobody is waiting for it any more.
  const held = invoice.status === 'payment_authorized' || invoice.status === 'disputed';
  return (
    <section className="invoice-transfer" aria-label={`Transfer of ${number}`} data-testid="invoice-transfer">
      <h4 className="invoice-transfer-title">Site transfer</h4>
      <ol className="transfer-steps">
        <li className={transfer.started_at ? 'transfer-step-done' : undefined} data-testid="transfer-started">
          <span className="transfer-step-name">Seller started the transfer</span>
          <span className="muted small">{stepText(transfer.started_at, held ? 'Waiting for the seller' : 'Not started')}</span>
        </li>
        <li className={transfer.received_at ? 'transfer-step-done' : undefined} data-testid="transfer-received">
          <span className="transfer-step-name">Buyer received the site</span>
          <span className="muted small">{stepText(transfer.received_at, !held ? 'Not confirmed' : transfer.started_at ? 'Waiting for the buyer' : 'After the seller starts')}</span>
        </li>
      </ol>
      {dispute && (
        <div className={`alert ${dispute.status === 'closed' ? 'alert-info' : 'alert-warning'} transfer-dispute`} role="status" data-testid="invoice-dispute">
          <p>{disputeSummary(dispute, invoice.role)}</p>
          {dispute.status !== 'closed' && <p className="transfer-dispute-message">“{dispute.message}”</p>}
          {dispute.resolution_note && (
            <p data-testid="dispute-note">
              <strong>Admin&apos;s note:</strong> {dispute.resolution_note}
            </p>
          )}
        </div>
      )}
      {(invoice.can_mark_transfer_started || invoice.can_confirm_received || invoice.can_dispute) && (
        <div className="transfer-actions">
          {invoice.can_mark_transfer_started && (
            <button type="button" className="btn btn-primary btn-tiny" disabled={busy} aria-label={`Mark transfer of ${number} started`} onClick={onMarkStarted}>
              {busy ? 'Saving...' : 'Mark transfer started'}
            </button>
          )}
          {invoice.can_confirm_received && (
            <button type="button" className="btn btn-primary btn-tiny" disabled={busy} aria-label={`I have received the site of ${number}`} onClick={onConfirmReceived}>
              {busy ? 'Saving...' : 'I have received the site'}
            </button>
          )}
          {invoice.can_dispute && (
            <button type="button" className="btn btn-danger btn-tiny" disabled={busy} aria-label={`Open a dispute about ${number}`} onClick={onDispute}>
              Open a dispute
            </button>
          )}
        </div>
      )}
    </section>
  );
}
