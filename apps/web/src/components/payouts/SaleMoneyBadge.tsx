import { saleMoneyBadge } from './payout-status';

/** The coloured badge of where a sale's money is (held in escrow, waiting for the payout account, sent, paid, reversed). */
export function SaleMoneyBadge({ status, testId, forAdmin = false }: { status: string; testId?: string; forAdmin?: boolean }) {
  const badge = saleMoneyBadge(status, forAdmin);
  return (
    <span className={`badge badge-${badge.tone}`} data-testid={testId} data-status={status}>
      {badge.label}
    </span>
  );
}
