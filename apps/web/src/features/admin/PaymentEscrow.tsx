import type { AdminPaymentIntentDto } from '@market/contracts';
import { SaleMoneyBadge } from '../../components/payouts/SaleMoneyBadge';
import { payoutAccountBadge } from '../../components/payouts/payout-status';
import { formatMoney } from '../../lib/money';
import { when } from './admin-dates';

/**
 * Where a payment's money is beyond the card (D22): held in the platform's escrow since when, and once released the
 * seller's payout with its net and fee, and why it waits when the seller's payout account cannot take it yet.
 */
export function PaymentEscrow({ row }: { row: AdminPaymentIntentDto }) {
  const { held_in_escrow_since: since, payout } = row;
  if (!since && !payout) return null;
  return (
    <div className="admin-escrow">
      {since && (
        <div className="small admin-escrow-held" data-testid="payment-escrow">
          Held in escrow since {when(since)}
        </div>
      )}
      {payout && (
        <div className="admin-payout" data-testid="payment-payout">
          <div>
            <span className="muted small">Payout</span> <SaleMoneyBadge status={payout.status} forAdmin testId="payment-payout-status" />
          </div>
          <div className="small">
            Net {formatMoney(payout.net)} · fee {formatMoney(payout.fee)}
          </div>
          {payout.status === 'waiting_for_account' && (
            <div className="small admin-payout-wait" data-testid="payment-payout-waiting">
              Waiting for the seller&apos;s payout account ({payoutAccountBadge(payout.seller_account_status).label.toLowerCase()})
            </div>
          )}
          {payout.paid_at && <div className="muted small">Paid {when(payout.paid_at)}</div>}
        </div>
      )}
    </div>
  );
}
