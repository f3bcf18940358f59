import type { SellerPayoutDto, SellerPayoutsDto } from '@market/contracts';
import { EmptyState, LoadError, LoadingState } from '../../components/feedback/QueryState';
import { SaleMoneyBadge } from '../../components/payouts/SaleMoneyBadge';
import { formatMoney } from '../../lib/money';
import { formatDay, NO_SALES_TEXT } from './payouts';
import { usePayoutsQuery } from './payouts.api';

/** The seller's balance and each sale's money (D22): held in escrow, waiting for the account, being sent, paid. */
export function PayoutHistory() {
  const { data, isLoading, isError, isFetching, refetch } = usePayoutsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <section className="payout-history" aria-labelledby="payout-history-title">
      <h2 id="payout-history-title">Your sales&apos; money</h2>
      {isLoading && <LoadingState text="Loading your payouts..." />}
      {isError && <LoadError onRetry={() => void refetch()}>Could not load your payouts.</LoadError>}
      {data && <PayoutBalance balance={data.balance} />}
      {data && data.payouts.length === 0 && (
        <EmptyState>
          <p>{NO_SALES_TEXT}</p>
        </EmptyState>
      )}
      {data && data.payouts.length > 0 && (
        <div className="table-wrap payouts-wrap" aria-busy={isFetching}>
          <table className="data payouts-table">
            <thead>
              <tr>
                <th>Invoice</th>
                <th>Website</th>
                <th>Gross</th>
                <th>Fee</th>
                <th>Net</th>
                <th>Status</th>
                <th>Created</th>
                <th>Paid</th>
              </tr>
            </thead>
            <tbody>
              {data.payouts.map((payout) => (
                <PayoutRow key={payout.invoice_id} payout={payout} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function PayoutBalance({ balance }: { balance: SellerPayoutsDto['balance'] }) {
  const figures = [
    { label: 'In escrow', hint: 'Held for your sales, not yet sent', value: balance.in_escrow, testId: 'payout-balance-in-escrow' },
    { label: 'Paid out', hint: 'Sent to your payout account', value: balance.paid_out, testId: 'payout-balance-paid-out' },
    { label: 'Success fees', hint: 'Deducted from released sales', value: balance.fees, testId: 'payout-balance-fees' },
  ];
  return (
    <dl className="stat-grid payout-balance">
      {figures.map((figure) => (
        <div key={figure.testId} className="card">
          <dt className="muted">{figure.label}</dt>
          <dd className="stat-value" data-testid={figure.testId}>
            {formatMoney(figure.value)}
          </dd>
          <dd className="muted small">{figure.hint}</dd>
        </div>
      ))}
    </dl>
  );
}

function PayoutRow({ payout }: { payout: SellerPayoutDto }) {
  return (
    <tr data-testid="payout-row" data-invoice-id={payout.invoice_id}>
      <td data-label="Invoice" className="payout-invoice">
        {payout.invoice_number}
      </td>
      <td data-label="Website" className="payout-website">
        {payout.website_title}
      </td>
      <td data-label="Gross" data-testid="payout-row-gross">
        {formatMoney(payout.gross)}
      </td>
      <td data-label="Fee" data-testid="payout-row-fee">
        {formatMoney(payout.fee)}
      </td>
      <td data-label="Net" className="payout-net" data-testid="payout-row-net">
        {formatMoney(payout.net)}
      </td>
      <td data-label="Status" className="payout-status">
        <SaleMoneyBadge status={payout.status} testId="payout-row-status" />
      </td>
      <td data-label="Created" className="payout-date">
        {formatDay(payout.created_at)}
      </td>
      <td data-label="Paid" className="payout-date">
        {payout.paid_at ? formatDay(payout.paid_at) : <span className="muted">Not yet</span>}
      </td>
    </tr>
  );
}
