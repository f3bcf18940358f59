import { useState } from 'react';
import type { LedgerOverviewDto } from '@market/contracts';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { errorDetail } from '../../lib/error-detail';
import { when } from './admin-dates';
import { reconcileSummary, unreconciledText } from './admin-ledger';
import { InvoiceTrail } from './InvoiceTrail';
import { LedgerAccounts, LedgerDifferences } from './LedgerTables';
import { useLedgerOverviewQuery, useReconcileLedgerMutation } from './ledger.api';
import './admin-billing.css';
import './admin-ledger.css';

type Message = { kind: 'success' | 'error'; text: string } | null;

/**
 * Admin Ledger (D22): whether every ledger transaction balances, each account's balance, the open differences with the
 * provider's balance transactions, Reconcile now, and an invoice's money trail (`?invoice=` opens one).
 */
export function AdminLedgerTab() {
  const { data, isLoading, isFetching, isError, error, refetch } = useLedgerOverviewQuery(undefined, { refetchOnMountOrArgChange: true });
  const [reconcile, { isLoading: reconciling }] = useReconcileLedgerMutation();
  const [message, setMessage] = useState<Message>(null);

  const run = async () => {
    setMessage(null);
    try {
      setMessage({ kind: 'success', text: reconcileSummary(await reconcile().unwrap()) });
    } catch (failure) {
      // 503: the provider did not answer; the daily run tries again.
      setMessage({ kind: 'error', text: errorDetail(failure, 'The reconciliation could not run. Please try again in a minute.') });
    }
  };

  return (
    <section className="admin-billing admin-ledger" aria-label="Ledger">
      <div className="admin-analytics-header">
        <h2>Ledger</h2>
        <button type="button" className="btn btn-primary btn-small" onClick={() => void run()} disabled={reconciling || isError}>
          {reconciling ? 'Reconciling...' : 'Reconcile now'}
        </button>
      </div>
      {message && (
        <div className={`alert alert-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'} data-testid="ledger-reconcile-message">
          {message.text}
        </div>
      )}
      {isLoading && <LoadingState text="Loading the ledger..." />}
      {isError && (
        <LoadError onRetry={() => void refetch()}>{(error as { status?: number })?.status === 403 ? 'Could not load the ledger: admins only.' : 'Could not load the ledger.'}</LoadError>
      )}
      {data && (
        <div aria-busy={isFetching}>
          <LedgerHeadline overview={data} />
          <LedgerAccounts accounts={data.accounts} />
          <LedgerDifferences differences={data.differences} />
        </div>
      )}
      <InvoiceTrail />
    </section>
  );
}

function LedgerHeadline({ overview }: { overview: LedgerOverviewDto }) {
  return (
    <dl className="stat-grid ledger-headline">
      <div className="card">
        <dt className="muted">Double entry</dt>
        <dd className={`stat-value ${overview.balanced ? 'ledger-ok' : 'ledger-bad'}`} data-testid="ledger-balanced" data-balanced={overview.balanced}>
          {overview.balanced ? 'Balanced' : 'Does not balance'}
        </dd>
        <dd className="muted small">{overview.transactions.toLocaleString('en-US')} transactions</dd>
      </div>
      <div className="card">
        <dt className="muted">Against the provider</dt>
        <dd className={`stat-value ${overview.unreconciled === 0 ? 'ledger-ok' : 'ledger-warn'}`} data-testid="ledger-unreconciled" data-count={overview.unreconciled}>
          {unreconciledText(overview.unreconciled)}
        </dd>
        <dd className="muted small" data-testid="ledger-last-reconciled">
          {overview.last_reconciled_at ? `Last reconciled ${when(overview.last_reconciled_at)}` : 'Not reconciled yet'}
        </dd>
      </div>
    </dl>
  );
}
