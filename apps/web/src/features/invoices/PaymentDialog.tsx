import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import type { InvoiceDto } from '@market/contracts';
import { SandboxCardForm } from '../../components/payments/SandboxCardForm';
import { StripeCardForm } from '../../components/payments/StripeCardForm';
import { FUNDS_HELD_NOTICE, INITIALIZING_TEXT, messageTone, shortPaymentId, type Tone } from '../../components/payments/payments';
import '../../components/payments/payments.css';
import { useInvoicePayment } from './use-invoice-payment';

export type DialogInvoice = Pick<InvoiceDto, 'id' | 'invoice_number' | 'website_title' | 'total_amount' | 'status'>;

const BADGE_CLASS: Record<Tone, string> = { success: 'badge-green', error: 'badge-red', warning: 'badge-orange', info: 'badge-blue' };

/**
 * The payment dialog (SPEC §2, §4, §8; ADR 0022). On open it asks for a payment; a 409 continues the open one after
 * looking up its status. The sandbox's TEST MODE card form confirms it, or Stripe Elements when the server chose
 * Stripe and sent its publishable key (only then is Stripe.js loaded, D12); a held or succeeded payment replaces the
 * form with a success box.
 */
export function PaymentDialog({ invoice, onClose }: { invoice: DialogInvoice; onClose: () => void }) {
  const { phase, intent, stripeKey, message, verifying, busy, pay, payWithStripe, completeVerification, paymentStatus, banner, badge, paid, showForm, amount } =
    useInvoicePayment(invoice);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="modal-backdrop" role="presentation" onClick={onClose}>
      <div
        className="modal card payment-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="payment-dialog-title"
        aria-busy={phase === 'initializing' || busy}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="payment-dialog-title">{banner.title}</h2>
        <div className={`alert alert-${banner.tone} payment-banner`} data-testid="payment-banner" data-tone={banner.tone}>
          {banner.text}
        </div>
        <dl className="payment-facts">
          <div>
            <dt className="muted">Website</dt>
            <dd>{invoice.website_title}</dd>
          </div>
          <div>
            <dt className="muted">Invoice</dt>
            <dd className="payment-mono">{invoice.invoice_number}</dd>
          </div>
          <div>
            <dt className="muted">Status</dt>
            <dd>
              <span className={`badge ${BADGE_CLASS[badge.tone]}`} data-testid="payment-status-badge">
                {badge.label}
              </span>
            </dd>
          </div>
          {intent && (
            <div>
              <dt className="muted">Payment ID</dt>
              <dd className="payment-mono" title={intent.id}>
                {shortPaymentId(intent.id)}
              </dd>
            </div>
          )}
          <div>
            <dt className="muted">Amount</dt>
            <dd>
              <strong className="payment-amount">{amount}</strong>
            </dd>
          </div>
        </dl>

        {message && (
          <div className={`alert alert-${messageTone(message.text)} payment-message`} role={messageTone(message.text) === 'error' ? 'alert' : 'status'} data-testid="payment-message">
            {message.text}
            {message.contactSupport && (
              <>
                {' '}
                <Link to="/contact" onClick={onClose}>
                  Close and Contact Support
                </Link>
              </>
            )}
          </div>
        )}

        {phase === 'initializing' && (
          <div className="center payment-initializing" role="status">
            <div className="spinner" aria-hidden="true" />
            <p className="muted">{INITIALIZING_TEXT}</p>
          </div>
        )}
        {phase === 'failed' && (
          <div className="payment-init-failed">
            <strong>Unable to initialize payment</strong>
            <p className="muted">Please try again or contact support</p>
          </div>
        )}
        {paid && <PaidBox status={paymentStatus ?? ''} />}
        {showForm && verifying && (
          <div className="payment-verify" role="group" aria-label="Verification">
            <p>
              <strong>TEST MODE:</strong> your bank asks you to confirm this payment (a stand-in for 3-D Secure).
            </p>
            <button type="button" className="btn btn-primary btn-block" disabled={busy} onClick={() => void completeVerification()}>
              {busy ? 'Processing Payment...' : 'Complete verification'}
            </button>
          </div>
        )}
        {showForm && !verifying && stripeKey && (
          <StripeCardForm publishableKey={stripeKey} submitLabel={`Pay ${amount} Securely`} ready={showForm} busy={busy} onPay={(stripe, card) => void payWithStripe(stripe, card)} />
        )}
        {showForm && !verifying && !stripeKey && <SandboxCardForm submitLabel={`Pay ${amount} Securely`} ready={showForm} busy={busy} onPay={(card) => void pay(card)} />}

        <p className="muted payment-notice">{FUNDS_HELD_NOTICE}</p>
        <button type="button" className="btn btn-secondary btn-block" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

/** Replaces the form once the funds are held or released. */
function PaidBox({ status }: { status: string }) {
  return (
    <div className="payment-success-box" role="status" data-testid="payment-success-box">
      <strong>{status === 'succeeded' ? 'Payment complete: funds released' : 'Payment authorized: funds held'}</strong>
      <p>
        {status === 'succeeded'
          ? 'This invoice is already paid and the funds have been released to the seller.'
          : 'Your payment is complete. The funds are held until the domain transfer is verified; verification is in progress.'}
      </p>
    </div>
  );
}
