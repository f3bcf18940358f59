import { Link, useSearchParams } from 'react-router-dom';
import { usePageMeta } from '../../lib/page-meta';
import '../../components/payments/payments.css';

/** /payment-cancel?invoice_id= (SPEC §2): nothing was charged; the invoice can be paid again from the dashboard. */
export function PaymentCancelPage() {
  usePageMeta({ title: 'Payment cancelled' });
  const [params] = useSearchParams();
  const invoiceId = params.get('invoice_id')?.trim();
  return (
    <div className="container section">
      <div className="card center payment-result" data-testid="payment-cancelled">
        <div className="payment-result-icon payment-result-icon-neutral" aria-hidden="true">
          ×
        </div>
        <h1>Payment Cancelled</h1>
        <p>No charges have been made to your account.</p>
        <div className="alert alert-info payment-help">
          <strong>Need help?</strong>
          <p>
            If you had trouble paying, you can try again from your invoices at any time while the invoice is open, or
            contact our support team and we will help you complete your purchase.
          </p>
        </div>
        <div className="payment-result-buttons">
          {invoiceId && (
            <Link className="btn btn-primary" to={`/dashboard?tab=invoices&pay=${encodeURIComponent(invoiceId)}`}>
              Try Payment Again
            </Link>
          )}
          <Link className="btn btn-secondary" to="/dashboard">
            Back to Dashboard
          </Link>
          <Link className="btn btn-ghost" to="/contact">
            Contact Support
          </Link>
        </div>
      </div>
    </div>
  );
}
