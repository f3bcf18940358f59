import { useEffect, useState } from 'react';
import type { AdminPaymentIntentDto } from '@market/contracts';
import { useConfirm } from '../../components/dialog/use-confirm';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { useAdminPaymentIntentsQuery, useCapturePaymentMutation, useRefundPaymentMutation } from '../../api/payments.api';
import { formatMoney } from '../../lib/money';
import { adminActionError, adminActionSuccess, messageTone, paymentTotals } from '../../components/payments/payments';
import { ResolveDisputeDialog } from './ResolveDisputeDialog';
import { PaymentRow, type PaymentAction } from './AdminPaymentRow';
import './admin-billing.css';
import '../../components/payments/payments.css';

const MESSAGE_MS = 5000;

/** What Release Funds does since payouts (D22): the seller is paid, not just the hold captured. */
export const RELEASE_EXPLAINED = "Release the funds to the seller: the sale price less the success fee is transferred to the seller's payout account.";

/**
 * Admin Payments (SPEC §2, §8, D11, D22): every payment intent with its status label, the capture deadline of holds
 * (flagged under 48 hours), escrow and the seller's payout, Release Funds and Refund after a confirmation, and the
 * footer totals.
 */
export function AdminPaymentsTab() {
  const { data, isLoading, isFetching, isError, error, refetch } = useAdminPaymentIntentsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [capture] = useCapturePaymentMutation();
  const [refund] = useRefundPaymentMutation();
  const { ask, dialog } = useConfirm();
  const [busy, setBusy] = useState<{ id: string; action: PaymentAction } | null>(null);
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

  const act = async (row: AdminPaymentIntentDto, action: PaymentAction) => {
    const amount = formatMoney(row.amount);
    const question =
      action === 'capture'
        ? `Release ${amount} to the seller for "${row.metadata.website_title}" (${row.invoice_number})?\n\n${RELEASE_EXPLAINED}\n\nDo this only once the domain transfer is verified. It cannot be undone.`
        : `Refund ${amount} to the buyer for "${row.metadata.website_title}" (${row.invoice_number})?\n\nThe held funds are returned to the buyer and the sale is cancelled.`;
    const confirmed = await ask(
      action === 'capture' ? { title: 'Release funds', text: question, confirmLabel: 'Release Funds' } : { title: 'Refund payment', text: question, confirmLabel: 'Refund', tone: 'danger' },
    );
    if (!confirmed) return;
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
      {dialog}
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
