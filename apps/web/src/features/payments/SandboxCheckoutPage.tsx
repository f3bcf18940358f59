import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import { useInvoiceQuery } from '../../api/invoices.api';
import { paymentsApi, type SandboxCardFields } from '../../api/payments.api';
import { errorDetail } from '../../lib/error-detail';
import { formatMoney } from '../../lib/money';
import { SandboxCardForm } from '../../components/payments/SandboxCardForm';
import { FUNDS_HELD_NOTICE, sameOriginPath, UNEXPECTED_TEXT } from '../../components/payments/payments';
import '../../components/payments/payments.css';
import { usePageMeta } from '../../lib/page-meta';

/**
 * The sandbox provider's hosted checkout (D12, ADR 0020/0022) at /sandbox-checkout/{session_id}?invoice_id=: where
 * buy-now's checkout_url leads. TEST MODE, the amount and listing, the card form; Pay completes the session and follows
 * the answer's address (the success page); a declined card is said here and can be retried; Cancel goes to the cancel
 * page. With Stripe configured, Stripe hosts this page instead.
 */
export function SandboxCheckoutPage() {
  usePageMeta({ title: 'Secure checkout' });
  const { sessionId = '' } = useParams();
  const [params] = useSearchParams();
  const invoiceId = params.get('invoice_id')?.trim() ?? '';
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const { user, status } = useAppSelector((state) => state.session);
  const { data: invoice, error, isLoading } = useInvoiceQuery(invoiceId, { skip: !invoiceId || !user });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const cancelPath = `/payment-cancel${invoiceId ? `?invoice_id=${encodeURIComponent(invoiceId)}` : ''}`;

  const pay = async (card: SandboxCardFields) => {
    setBusy(true);
    setFailure(null);
    try {
      // Untracked: the card number stays out of the store (ADR 0022).
      const result = await dispatch(paymentsApi.endpoints.completeCheckout.initiate({ session_id: sessionId, card }, { track: false })).unwrap();
      if (result.error) {
        // A declined card: the payment stays open, so the buyer may try another card right here.
        setFailure(result.error.message);
        return;
      }
      const path = sameOriginPath(result.redirect_url, window.location.origin);
      if (path) navigate(path);
      else if (/^https?:\/\//i.test(result.redirect_url)) window.location.assign(result.redirect_url);
      else setFailure(UNEXPECTED_TEXT);
    } catch (failed) {
      setFailure(errorDetail(failed, UNEXPECTED_TEXT));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="container section">
      <div className="card sandbox-checkout" data-testid="sandbox-checkout">
        <div className="sandbox-checkout-banner" role="note">
          TEST MODE · Sandbox checkout
        </div>
        <div className="sandbox-checkout-body">
          {status === 'loading' && <p className="muted">Loading checkout...</p>}
          {status !== 'loading' && !user && (
            <p>
              Please <Link to="/login">log in</Link> as the buyer to complete this checkout.
            </p>
          )}
          {user && !invoiceId && <p className="alert alert-error">This checkout link is missing its invoice.</p>}
          {user && invoiceId && isLoading && <p className="muted">Loading checkout...</p>}
          {user && error && (
            <p className="alert alert-error" role="alert">
              {errorDetail(error, 'This checkout could not be loaded.')}
            </p>
          )}
          {invoice && (
            <>
              <p className="muted">Pay for</p>
              <h1>{invoice.website_title}</h1>
              <p className="muted payment-mono">Invoice {invoice.invoice_number}</p>
              <p className="sandbox-checkout-amount" aria-label="Amount to pay">
                {formatMoney(invoice.total_amount)}
              </p>
              {failure && (
                <p className="alert alert-error" role="alert" data-testid="checkout-error">
                  {failure}
                </p>
              )}
              <SandboxCardForm submitLabel={`Pay ${formatMoney(invoice.total_amount)}`} ready={Boolean(sessionId)} busy={busy} onPay={(card) => void pay(card)} />
              <p className="muted payment-notice">{FUNDS_HELD_NOTICE}</p>
            </>
          )}
          <Link className="sandbox-checkout-cancel" to={cancelPath}>
            Cancel and return
          </Link>
        </div>
      </div>
    </div>
  );
}
