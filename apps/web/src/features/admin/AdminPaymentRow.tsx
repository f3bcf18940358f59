import { Link } from 'react-router-dom';
import type { AdminPaymentIntentDto } from '@market/contracts';
import { paymentStatusLabel } from '@market/domain';
import { formatMoney } from '../../lib/money';
import { shortPaymentId } from '../../components/payments/payments';
import { when } from './admin-dates';
import { PaymentEscrow } from './PaymentEscrow';

/** What an admin does to a payment from its row: Release Funds (capture, then the seller's payout) or Refund. */
export type PaymentAction = 'capture' | 'refund';

const STATUS_BADGE: Record<string, string> = {
  requires_capture: 'badge-orange',
  succeeded: 'badge-green',
  canceled: 'badge-gray',
  failed: 'badge-red',
};

interface PaymentRowProps {
  row: AdminPaymentIntentDto;
  busy: PaymentAction | null;
  disabled: boolean;
  onAct: (action: PaymentAction) => void;
  onResolve: () => void;
}

/** One payment intent's row: ids, website and invoice, amount, status with escrow and payout, dates, transfer, actions. */
export function PaymentRow({ row, busy, disabled, onAct, onResolve }: PaymentRowProps) {
  // Funds are held on the card (a hold) or, once captured, in the platform's escrow until released (D22).
  const held = row.status === 'requires_capture' || Boolean(row.held_in_escrow_since);
  // A disputed invoice is decided with a note, never with the plain buttons (ADR 0039).
  const disputed = row.dispute !== null && row.dispute.status !== 'closed' && held;
  // Released funds are the seller's: no second release, and no refund from escrow (D22).
  const holding = held && !disputed && !row.payout;
  const refundable = !disputed && !row.payout && (holding || (row.status === 'succeeded' && !row.refunded_at));
  return (
    <tr data-testid="admin-payment-row" data-payment-id={row.id} className={row.dispute_urgent ? 'admin-payment-urgent' : undefined}>
      <td data-label="Payment" className="admin-payment-id">
        <span className="payment-mono" title={row.id}>
          {shortPaymentId(row.id)}
        </span>
        <div className="muted small payment-mono" title={row.stripe_payment_intent_id}>
          {shortPaymentId(row.stripe_payment_intent_id)}
        </div>
        <div className="muted small">
          {row.provider} · {row.capture_method}
        </div>
      </td>
      <td data-label="Website / Invoice" className="admin-payment-website">
        <strong>{row.metadata.website_title}</strong>
        <div className="muted small payment-mono">{row.invoice_number}</div>
        <Link className="small" to={`/dashboard?tab=ledger&invoice=${encodeURIComponent(row.invoice_id)}`} data-testid="admin-payment-ledger" aria-label={`Ledger trail of ${row.invoice_number}`}>
          Ledger
        </Link>
      </td>
      <td data-label="Amount" className="admin-payment-amount">
        {formatMoney(row.amount)} <span className="muted small">{row.currency.toUpperCase()}</span>
      </td>
      <td data-label="Status">
        <span className={`badge ${STATUS_BADGE[row.status] ?? 'badge-blue'}`} data-testid="admin-payment-status">
          {paymentStatusLabel(row.status)}
        </span>
        {row.last_error && <div className="muted small">{row.last_error}</div>}
        {row.captured_at && <div className="muted small">Captured {when(row.captured_at)}</div>}
        {row.refunded_at && <div className="muted small">Refunded {when(row.refunded_at)}</div>}
        <PaymentEscrow row={row} />
      </td>
      <td data-label="Created">{when(row.created_at)}</td>
      <td data-label="Capture by">
        {row.capture_deadline ? when(row.capture_deadline) : '—'}
        {row.expires_soon && (
          <div>
            <span className="badge badge-red" data-testid="hold-expires-soon">
              Under 48 h left
            </span>
          </div>
        )}
      </td>
      <td data-label="Transfer" className="admin-payment-transfer">
        <TransferCell row={row} />
      </td>
      <td data-label="Actions" className="admin-payment-actions">
        {row.transfer.verified_at && (
          <span className="badge badge-green" data-testid="admin-transfer-verified" title="The buyer's own token showed on the site's domain (ADR 0040)">
            ✓ Transfer verified
          </span>
        )}
        {disputed && (
          <button type="button" className="btn btn-primary btn-tiny" disabled={disabled} onClick={onResolve}>
            Resolve dispute
          </button>
        )}
        {holding && (
          <button type="button" className="btn btn-primary btn-tiny" disabled={disabled} onClick={() => onAct('capture')}>
            {busy === 'capture' ? 'Releasing...' : 'Release Funds'}
          </button>
        )}
        {refundable && (
          <button type="button" className="btn btn-danger btn-tiny" disabled={disabled} onClick={() => onAct('refund')}>
            {busy === 'refund' ? 'Refunding...' : 'Refund'}
          </button>
        )}
        {!holding && !refundable && !disputed && <span className="muted small">No actions</span>}
      </td>
    </tr>
  );
}

/** The invoice's transfer checklist and dispute beside Release Funds (ADR 0039). */
function TransferCell({ row }: { row: AdminPaymentIntentDto }) {
  const { transfer, dispute } = row;
  return (
    <div className="admin-transfer" data-testid="admin-payment-transfer">
      <div className={transfer.started_at ? 'admin-transfer-done' : 'muted'}>{transfer.started_at ? `Started ${when(transfer.started_at)}` : 'Not started'}</div>
      <div className={transfer.received_at ? 'admin-transfer-done' : 'muted'}>{transfer.received_at ? `Received ${when(transfer.received_at)}` : 'Not confirmed by buyer'}</div>
      {dispute && dispute.status !== 'closed' && (
        <div>
          <span className="badge badge-orange" data-testid="admin-payment-disputed">
            Disputed
          </span>{' '}
          <span className="small">{dispute.reason_label}</span>
          {row.dispute_urgent && (
            <div>
              <span className="badge badge-red" data-testid="dispute-urgent">
                Urgent: decide before the hold ends
              </span>
            </div>
          )}
        </div>
      )}
      {dispute?.status === 'closed' && (
        <div className="small" data-testid="admin-payment-dispute-outcome">
          Dispute {dispute.outcome === 'released' ? 'released to seller' : dispute.outcome === 'refunded' ? 'refunded to buyer' : 'lapsed'}
        </div>
      )}
    </div>
  );
}
