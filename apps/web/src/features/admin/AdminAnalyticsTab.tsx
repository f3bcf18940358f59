import { useCallback, useEffect, useState } from 'react';
import type { InvoiceAnalytics } from '@market/contracts';
import { LoadingState } from '../../components/feedback/QueryState';
import { useLazyInvoiceAnalyticsQuery } from '../../api/admin-billing.api';
import { ANALYTICS_EMPTY_TEXT, formatMoney, formatRate } from './admin-billing-figures';
import { AgingChart, RevenueChart } from './BillingCharts';
import './admin-billing.css';

type Figure = [label: string, value: string];

/**
 * Admin Analytics (SPEC §2, §3): invoice figures, two charts and the top customers. Loaded on opening and by "Refresh
 * Data"; a failed load clears what was shown and brings the empty prompt back (SPEC §8).
 */
export function AdminAnalyticsTab() {
  const [fetchAnalytics] = useLazyInvoiceAnalyticsQuery();
  const [analytics, setAnalytics] = useState<InvoiceAnalytics | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setAnalytics(await fetchAnalytics(undefined, false).unwrap());
      setFailed(false);
    } catch (failure) {
      console.error('Error loading analytics', failure);
      setAnalytics(null);
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [fetchAnalytics]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="admin-billing admin-analytics" aria-label="Analytics" aria-busy={loading}>
      <div className="admin-analytics-header">
        <h2>Invoice analytics</h2>
        <button type="button" className="btn btn-primary btn-small" onClick={() => void load()} disabled={loading}>
          {loading ? 'Refreshing...' : 'Refresh Data'}
        </button>
      </div>

      {failed && (
        <div className="alert alert-error" role="alert">
          Could not load analytics.
        </div>
      )}
      {loading && !analytics && <LoadingState text="Loading analytics..." />}
      {!loading && !analytics && <p className="card center muted">{ANALYTICS_EMPTY_TEXT}</p>}
      {analytics && <AnalyticsBody analytics={analytics} />}
    </section>
  );
}

function FigureGrid({ title, figures }: { title: string; figures: Figure[] }) {
  return (
    <>
      <h3 className="admin-analytics-heading">{title}</h3>
      <dl className="stat-grid">
        {figures.map(([label, value]) => (
          <div className="card" key={label}>
            <dt className="muted">{label}</dt>
            <dd className="stat-value">{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function AnalyticsBody({ analytics }: { analytics: InvoiceAnalytics }) {
  const { overview, financial, performance } = analytics;
  return (
    <>
      <FigureGrid
        title="Invoices"
        figures={[
          ['Total invoices', String(overview.total_invoices)],
          ['Paid', String(overview.paid_invoices)],
          ['Pending', String(overview.pending_invoices)],
          ['Overdue', String(overview.overdue_invoices)],
        ]}
      />
      <FigureGrid
        title="Money"
        figures={[
          ['Revenue (paid)', formatMoney(financial.total_revenue)],
          ['Pending revenue', formatMoney(financial.pending_revenue)],
          ['Overdue revenue', formatMoney(financial.overdue_revenue)],
          ['Average invoice', formatMoney(financial.avg_invoice_value)],
        ]}
      />
      <FigureGrid
        title="Performance"
        figures={[
          ['Payment rate', formatRate(performance.payment_rate)],
          ['Overdue rate', formatRate(performance.overdue_rate)],
        ]}
      />

      <div className="chart-grid">
        <RevenueChart points={analytics.revenue_over_time} />
        <AgingChart aging={analytics.aging_analysis} />
      </div>

      <h3 className="admin-analytics-heading">Top customers</h3>
      {analytics.top_customers.length === 0 ? (
        <p className="card center muted">No paid invoices yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="data admin-top-customers">
            <thead>
              <tr>
                <th>#</th>
                <th>Customer</th>
                <th>Revenue</th>
              </tr>
            </thead>
            <tbody>
              {analytics.top_customers.map((customer, i) => (
                <tr key={customer.customer_id}>
                  <td>{i + 1}</td>
                  <td className="admin-top-customer-name">{customer.customer_name}</td>
                  <td>{formatMoney(customer.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
