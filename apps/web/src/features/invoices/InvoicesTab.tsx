import { Link, useSearchParams } from 'react-router-dom';
import { useInvoicesQuery } from '../../api/invoices.api';
import { EmptyState, LoadError, LoadingState } from '../../components/feedback/QueryState';
import { dashboardRows, listLoadFailed } from '../../lib/dashboard-lists';
import { errorDetail } from '../../lib/error-detail';
import { NO_INVOICES_TEXT } from './invoices';
import { InvoiceList } from './InvoiceList';
import './invoices.css';

/** Dashboard Invoices (SPEC §2, D10): the user's invoices as buyer and as seller; ?pay={id} opens that invoice. */
export function InvoicesTab() {
  const { data, error, isLoading, refetch } = useInvoicesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [params] = useSearchParams();
  const rows = dashboardRows(data?.invoices, error);
  const failed = listLoadFailed(error);

  return (
    <section aria-labelledby="invoices-heading">
      <div className="invoices-head">
        <h2 id="invoices-heading">
          Invoices{!isLoading && !failed && <span className="muted"> ({rows.length})</span>}
        </h2>
        {rows.length > 0 && <Link to="/browse">Browse Websites</Link>}
      </div>
      {failed && <LoadError onRetry={() => refetch()}>Could not load your invoices: {errorDetail(error, 'please try again.')}</LoadError>}
      {isLoading && <LoadingState text="Loading your invoices..." />}
      {!isLoading && !error && rows.length === 0 && <NoInvoicesYet />}
      {rows.length > 0 && <InvoiceList rows={rows} payId={params.get('pay')} />}
    </section>
  );
}

/** The empty state, pointing at what to do next. */
export function NoInvoicesYet() {
  return (
    <EmptyState>
      <p>{NO_INVOICES_TEXT}</p>
      <p className="muted">Invoices appear here when you buy a website or one of yours sells.</p>
      <Link className="btn btn-primary" to="/browse">
        Browse Websites
      </Link>
    </EmptyState>
  );
}
