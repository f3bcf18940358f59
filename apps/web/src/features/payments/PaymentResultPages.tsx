import { Link, useSearchParams } from 'react-router-dom';
import { useInvoiceQuery } from '../../api/invoices.api';
import { useAppSelector } from '../../lib/store-hooks';
import { formatMoney } from '../../lib/money';
import { successParams } from '../../components/payments/payments';
import '../../components/payments/payments.css';
import { usePageMeta } from '../../lib/page-meta';

export const MISSING_PAYMENT_INFO = 'Missing payment information';
export const VERIFY_FAILED = 'Unable to verify payment. Please contact support if you were charged.';

/**
 * /payment-success?session_id=&invoice_id= (SPEC §2, §5, §8): where the hosted checkout returns. It reads the invoice
 * back from the API; without both parameters, or when the invoice cannot be read, it says so instead of celebrating.
 */
export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const wanted = successParams(params);
  const sessionStatus = useAppSelector((state) => state.session.status);
  const { data: invoice, isError, isLoading, isUninitialized } = useInvoiceQuery(wanted?.invoiceId ?? '', {
    skip: !wanted || sessionStatus === 'loading',
    refetchOnMountOrArgChange: true,
  });
  // The tab says what the page says: nothing is celebrated before the invoice confirms it.
  usePageMeta({ title: !wanted || isError ? 'Payment verification issue' : invoice ? 'Payment successful' : 'Verifying payment' });

  if (!wanted) return <VerificationIssue message={MISSING_PAYMENT_INFO} />;
  if (isError) return <VerificationIssue message={VERIFY_FAILED} />;
  if (isLoading || isUninitialized || !invoice) {
    return (
      <div className="container section">
        <div className="card center payment-result" role="status">
          <div className="spinner" aria-hidden="true" />
          <p className="muted">Verifying your payment...</p>
        </div>
      </div>
    );
  }
  return (
    <div className="container section">
      <div className="card center payment-result" data-testid="payment-success">
        <div className="payment-result-icon payment-result-icon-success" aria-hidden="true">
          ✓
        </div>
        <h1>Payment Successful!</h1>
        <p className="muted">Thank you: your payment went through and your funds are held securely in escrow.</p>
        <dl className="payment-result-facts">
          <div>
            <dt className="muted">Website</dt>
            <dd>{invoice.website_title}</dd>
          </div>
          <div>
            <dt className="muted">Invoice</dt>
            <dd className="payment-mono">{invoice.invoice_number}</dd>
          </div>
          <div>
            <dt className="muted">Amount</dt>
            <dd>
              <strong>{formatMoney(invoice.total_amount)}</strong>
            </dd>
          </div>
          <div>
            <dt className="muted">Status</dt>
            <dd>
              <span className="badge badge-green">Payment Complete</span>
            </dd>
          </div>
        </dl>
        <div className="alert alert-info payment-result-steps">
          <strong>What happens next</strong>
          <ol>
            <li>Your funds are held securely until the domain transfer is complete.</li>
            <li>The seller starts transferring the website and domain to you.</li>
            <li>You will receive updates by email as the transfer progresses.</li>
            <li>The funds are released to the seller once the transfer is verified.</li>
          </ol>
        </div>
        <div className="payment-result-buttons">
          <Link className="btn btn-primary" to="/dashboard">
            Go to Dashboard
          </Link>
          <Link className="btn btn-secondary" to="/browse">
            Browse More Websites
          </Link>
        </div>
      </div>
    </div>
  );
}

function VerificationIssue({ message }: { message: string }) {
  return (
    <div className="container section">
      <div className="card center payment-result" data-testid="payment-verification-issue">
        <div className="payment-result-icon payment-result-icon-warning" aria-hidden="true">
          !
        </div>
        <h1>Payment Verification Issue</h1>
        <p className="alert alert-error" role="alert">
          {message}
        </p>
        <div className="payment-result-buttons">
          <Link className="btn btn-primary" to="/dashboard">
            Go to Dashboard
          </Link>
          <Link className="btn btn-secondary" to="/contact">
            Contact Support
          </Link>
        </div>
      </div>
    </div>
  );
}
