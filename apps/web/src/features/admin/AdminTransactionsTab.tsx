import { useState } from 'react';
import { canPay } from '@market/domain';
import { Link } from 'react-router-dom';
import type { AdminTransactionDto } from '@market/contracts';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { useAdminTransactionsQuery } from '../../api/admin-billing.api';
import { formatMoney, TRANSACTION_FILTER_OPTIONS, transactionBadge, transactionDetail, type TransactionFilter } from './admin-billing-figures';
import { CancelSaleDialog } from './CancelSaleDialog';
import './admin-billing.css';

/** Admin Transactions (SPEC §2, D20): every invoice as a transaction, filtered by status group on the server. */
export function AdminTransactionsTab() {
  const [status, setStatus] = useState<TransactionFilter>('all');
  const { data, isLoading, isFetching, isError, refetch } = useAdminTransactionsQuery(status, { refetchOnMountOrArgChange: true });
  // A failed load empties the table rather than showing stale rows as current (SPEC §8).
  const rows = isError ? [] : (data?.transactions ?? []);
  const [cancelling, setCancelling] = useState<AdminTransactionDto | null>(null);
  const [cancelled, setCancelled] = useState<string | null>(null);

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

      {cancelled && (
        <p className="alert alert-success" role="status">
          {cancelled}
        </p>
      )}
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
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <TransactionRow key={row.id} row={row} onCancel={() => setCancelling(row)} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="table-footer">
            Showing {rows.length} transaction{rows.length === 1 ? '' : 's'}
          </div>
        </>
      )}
      {cancelling && (
        <CancelSaleDialog
          row={cancelling}
          onClose={() => setCancelling(null)}
          onCancelled={() => {
            setCancelled(`Sale ${cancelling.transaction_id} cancelled; the listing is back on sale.`);
            setCancelling(null);
          }}
        />
      )}
    </section>
  );
}

function TransactionRow({ row, onCancel }: { row: AdminTransactionDto; onCancel: () => void }) {
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
      <td data-label="Actions">
        {/* Only a sale no money is held or taken for can be cancelled (ADR 0043); the others are refunded. */}
        {canPay(row.invoice_status) ? (
          <button type="button" className="btn btn-ghost btn-tiny" aria-label={`Cancel sale ${row.transaction_id}`} onClick={onCancel}>
            Cancel sale
          </button>
        ) : (
          <span className="muted small">-</span>
        )}
      </td>
    </tr>
  );
}
