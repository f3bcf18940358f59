import { useEffect, useState } from 'react';
import type { AdminPaymentIntentDto } from '@market/contracts';
import { paymentStatusLabel } from '@market/domain';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { useAdminPaymentIntentsQuery, useCapturePaymentMutation, useRefundPaymentMutation } from '../../api/payments.api';
import { formatMoney } from '../../lib/money';
import { adminActionError, adminActionSuccess, messageTone, paymentTotals, shortPaymentId } from '../../components/payments/payments';
import { ResolveDisputeDialog } from './ResolveDisputeDialog';
import './admin-billing.css';
import '../../components/payments/payments.css';

const MESSAGE_MS = 5000;

type Action = 'capture' | 'refund';

/** A date and time as the admin's locale writes it; a dash when there is none. */
function when(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Admin Payments (SPEC §2, §8, D11): every payment intent with its status label, the capture deadline of holds (flagged
 * under 48 hours), Release Funds and Refund after a confirmation, and the footer totals.
 */
export function AdminPaymentsTab() {
  const { data, isLoading, isFetching, isError, error, refetch } = useAdminPaymentIntentsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [capture] = useCapturePaymentMutation();
  const [refund] = useRefundPaymentMutation();
  const [busy, setBusy] = useState<{ id: string; action: Action } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [resolving, setResolving] = useState<AdminPaymentIntentDto | null>(null);
  // Urgent disputes first (ADR 0039): their holds end within 48 hours and only an admin can decide them.
  const rows = [...(isError ? [] : (data?.payment_intents ?? []))].sort((a, b) => Number(b.dispute_urgent) - Number(a.dispute_urgent));
  const totals = paymentTotals(rows);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);

  const act = async (row: AdminPaymentIntentDto, action: Action) => {
    const amount = formatMoney(row.amount);
    const question =
      action === 'capture'
        ? `Release ${amount} to the seller for "${row.metadata.website_title}" (${row.invoice_number})?\n\nDo this only once the domain transfer is verified. It cannot be undone.`
        : `Refund ${amount} to the buyer for "${row.metadata.website_title}" (${row.invoice_number})?\n\nThe held funds are returned and the invoice becomes payable again.`;
    if (!window.confirm(question)) return;
    setBusy({ id: row.id, action });
    setMessage(null);
    try {
      await (action === 'capture' ? capture(row.id) : refund(row.id)).unwrap();
      setMessage(adminActionSuccess(action));
    } catch (failure) {
      const { status, data: body } = (failure ?? {}) as { status?: number | string; data?: { detail?: unknown } };
      const detail = typeof body?.detail === 'string' ? body.detail : null;
      setMessage(adminActionError(action, status, detail));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="admin-billing admin-payments" aria-label="Payments">
      <div className="admin-analytics-header">
        <h2>Payment intents</h2>
        <button type="button" className="btn btn-primary btn-small" onClick={() => void refetch()} disabled={isFetching}>
          {isFetching ? 'Refreshing...' : 'Refresh Payments'}
        </button>
      </div>
      {message && (
        <div className={`alert alert-${messageTone(message)}`} role={messageTone(message) === 'error' ? 'alert' : 'status'} data-testid="admin-payment-message">
          {message}
        </div>
      )}
      {isError && <LoadError onRetry={() => void refetch()}>Could not load payment intents{(error as { status?: number })?.status === 403 ? ': admins only.' : '.'}</LoadError>}
      {isLoading && <LoadingState text="Loading payments..." />}
      {!isLoading && !isError && rows.length === 0 && (
        <div className="card center">
          <p>No payment intents found.</p>
          <p className="muted">Payment intents will appear here when users make payments.</p>
        </div>
      )}
      {rows.length > 0 && (
        <>
          <div className="table-wrap admin-payments-wrap" aria-busy={isFetching}>
            <table className="data admin-payments-table">
              <thead>
                <tr>
                  <th>Payment</th>
                  <th>Website / Invoice</th>
                  <th>Amount</th>
                  <th>Status</th>
                  <th>Created</th>
                  <th>Capture by</th>
                  <th>Transfer</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <PaymentRow
                    key={row.id}
                    row={row}
                    busy={busy?.id === row.id ? busy.action : null}
                    disabled={busy !== null}
                    onAct={(action) => void act(row, action)}
                    onResolve={() => setResolving(row)}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <div className="table-footer admin-payments-totals" data-testid="admin-payments-totals">
            <span>
              Total: <strong>{totals.total}</strong>
            </span>
            <span>
              Awaiting capture: <strong>{totals.awaiting}</strong> ({formatMoney(totals.awaitingAmount)})
            </span>
            <span>
              Completed: <strong>{totals.completed}</strong> ({formatMoney(totals.completedAmount)})
            </span>
          </div>
        </>
      )}
      {resolving && (
        <ResolveDisputeDialog
          row={resolving}
          onClose={() => setResolving(null)}
          onResolved={(text) => {
            setResolving(null);
            // The tab's messages are toned by their mark (SPEC §8): a decision that went through is a success.
            setMessage(`✅ ${text}`);
          }}
        />
      )}
    </section>
  );
}

const STATUS_BADGE: Record<string, string> = {
  requires_capture: 'badge-orange',
  succeeded: 'badge-green',
  canceled: 'badge-gray',
  failed: 'badge-red',
};

interface PaymentRowProps {
  row: AdminPaymentIntentDto;
  busy: Action | null;
  disabled: boolean;
  onAct: (action: Action) => void;
  onResolve: () => void;
}

function PaymentRow({ row, busy, disabled, onAct, onResolve }: PaymentRowProps) {
  // A disputed invoice is decided with a note, never with the plain buttons (ADR 0039).
  const disputed = row.dispute !== null && row.dispute.status !== 'closed' && row.status === 'requires_capture';
  const holding = row.status === 'requires_capture' && !disputed;
  const refundable = !disputed && (holding || (row.status === 'succeeded' && !row.refunded_at));
  return (
    <tr data-testid="admin-payment-row" data-payment-id={row.id} className={row.dispute_urgent ? 'admin-payment-urgent' : undefined}>
      <td data-label="Payment">
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
