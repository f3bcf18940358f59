import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminTransactionDto } from '@market/contracts';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { useAdminTransactionsQuery } from '../../api/admin-billing.api';
import { formatMoney, TRANSACTION_FILTER_OPTIONS, transactionBadge, transactionDetail, type TransactionFilter } from './admin-billing-figures';
import './admin-billing.css';

/** Admin Transactions (SPEC §2, D20): every invoice as a transaction, filtered by status group on the server. */
export function AdminTransactionsTab() {
  const [status, setStatus] = useState<TransactionFilter>('all');
  const { data, isLoading, isFetching, isError, refetch } = useAdminTransactionsQuery(status, { refetchOnMountOrArgChange: true });
  // A failed load empties the table rather than showing stale rows as current (SPEC §8).
  const rows = isError ? [] : (data?.transactions ?? []);

  return (
    <section className="admin-billing" aria-label="Transactions">
      <div className="filters">
        <label>
          Status
          <select aria-label="Status" value={status} onChange={(event) => setStatus(event.target.value as TransactionFilter)}>
            {TRANSACTION_FILTER_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      {isError && <LoadError onRetry={() => refetch()}>Could not load transactions.</LoadError>}
      {isLoading && <LoadingState text="Loading transactions..." />}
      {!isLoading && !isError && rows.length === 0 && (
        <p className="card center muted">{status === 'all' ? 'No transactions yet.' : `No ${status} transactions.`}</p>
      )}

      {rows.length > 0 && (
        <>
          <div className="table-wrap admin-transactions-wrap" aria-busy={isFetching}>
            <table className="data admin-transactions-table">
              <thead>
                <tr>
                  <th>Transaction ID</th>
                  <th>Listing</th>
                  <th>Buyer/Seller</th>
                  <th>Amount</th>
                  <th>Status</th>
                  <th>Date</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <TransactionRow key={row.id} row={row} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="table-footer">
            Showing {rows.length} transaction{rows.length === 1 ? '' : 's'}
          </div>
        </>
      )}
    </section>
  );
}

function TransactionRow({ row }: { row: AdminTransactionDto }) {
  const detail = transactionDetail(row);
  return (
    <tr data-testid="admin-transaction-row" data-transaction-id={row.transaction_id}>
      <td data-label="Transaction ID">
        <span className="admin-transaction-number">{row.transaction_id}</span>
      </td>
      <td data-label="Listing" className="admin-transaction-listing">
        <Link to={`/listing/${row.listing_id}`}>{row.listing_title}</Link>
      </td>
      <td data-label="Buyer/Seller" className="admin-transaction-parties">
        <div>
          <span className="muted small">Buyer</span> {row.buyer.username}
        </div>
        <div>
          <span className="muted small">Seller</span> {row.seller.username}
        </div>
      </td>
      <td data-label="Amount" className="admin-transaction-amount">
        {formatMoney(row.amount)}
      </td>
      <td data-label="Status">
        <span className={`badge ${transactionBadge(row.status)}`}>{row.status}</span>
        {detail && <div className="muted small">{detail}</div>}
      </td>
      <td data-label="Date">{new Date(row.date).toLocaleDateString()}</td>
    </tr>
  );
}
