import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { InvoiceDto, SandboxConfirmResult } from '@market/contracts';
import { useAppDispatch } from '../../lib/store-hooks';
import { paymentsApi, useCreatePaymentMutation, usePaymentStatusMutation, type SandboxCardFields } from '../../api/payments.api';
import { formatMoney } from '../../lib/money';
import { SandboxCardForm } from '../../components/payments/SandboxCardForm';
import { StripeCardForm } from '../../components/payments/StripeCardForm';
import { stripeConfirmResult, usesStripe, type StripeCardElement, type StripeJs } from '../../components/payments/stripe-js';
import {
  confirmOutcome,
  creationFailure,
  dialogBadge,
  dialogBanner,
  existingPayment,
  existingPaymentStep,
  FUNDS_HELD_NOTICE,
  INITIALIZING_TEXT,
  INIT_FAILED_TEXT,
  isPaidStatus,
  messageTone,
  NOT_READY_TEXT,
  shortPaymentId,
  UNEXPECTED_TEXT,
  type Tone,
} from '../../components/payments/payments';
import '../../components/payments/payments.css';

export type DialogInvoice = Pick<InvoiceDto, 'id' | 'invoice_number' | 'website_title' | 'total_amount' | 'status'>;

interface Intent {
  id: string;
  client_secret: string;
  status: string;
}

const BADGE_CLASS: Record<Tone, string> = { success: 'badge-green', error: 'badge-red', warning: 'badge-orange', info: 'badge-blue' };

/**
 * The payment dialog (SPEC §2, §4, §8; ADR 0022). On open it asks for a payment; a 409 continues the open one after
 * looking up its status. The sandbox's TEST MODE card form confirms it, or Stripe Elements when the server chose
 * Stripe and sent its publishable key (only then is Stripe.js loaded, D12); a held or succeeded payment replaces the
 * form with a success box.
 */
export function PaymentDialog({ invoice, onClose }: { invoice: DialogInvoice; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [createPayment] = useCreatePaymentMutation();
  const [lookUpStatus] = usePaymentStatusMutation();
  const [phase, setPhase] = useState<'initializing' | 'ready' | 'failed'>('initializing');
  const [intent, setIntent] = useState<Intent | null>(null);
  const [stripeKey, setStripeKey] = useState<string | null>(null);
  const [existing, setExisting] = useState(false);
  const [invoiceStatus, setInvoiceStatus] = useState(invoice.status);
  const [message, setMessage] = useState<{ text: string; contactSupport?: boolean } | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const start = useCallback(async () => {
    const body = { invoice_id: invoice.id, return_url: `${window.location.origin}/dashboard` };
    // A second round only when the open payment turns out canceled: it is then treated as none (SPEC §4).
    for (let round = 0; round < 2; round += 1) {
      try {
        const created = await createPayment(body).unwrap();
        if (!alive.current) return;
        setIntent({ id: created.payment_intent_id, client_secret: created.client_secret, status: created.status });
        setStripeKey(usesStripe(created) ? created.publishable_key : null);
        setVerifying(created.status === 'requires_confirmation');
        setPhase('ready');
        return;
      } catch (error) {
        const { status, data } = (error ?? {}) as { status?: number | string; data?: unknown };
        const failure = creationFailure(status, data);
        const open = failure.kind === 'existing' ? existingPayment(data) : null;
        if (failure.kind === 'error' || !open) {
          if (!alive.current) return;
          setMessage(failure.kind === 'error' ? { text: failure.text, contactSupport: failure.contactSupport } : { text: INIT_FAILED_TEXT, contactSupport: true });
          setPhase('failed');
          return;
        }
        let current = open.status;
        try {
          current = (await lookUpStatus(open.payment_intent_id).unwrap()).status;
        } catch (lookupError) {
          // SPEC §8: a failed lookup is only logged; the 409's own status stands.
          console.error('Payment status lookup failed', lookupError);
        }
        if (!alive.current) return;
        const step = existingPaymentStep(current);
        if (step === 'none' && round === 0) continue;
        setMessage({ text: failure.text });
        setExisting(true);
        setIntent({ id: open.payment_intent_id, client_secret: open.client_secret, status: current });
        setStripeKey(usesStripe(open) ? open.publishable_key : null);
        setVerifying(current === 'requires_confirmation');
        setPhase('ready');
        return;
      }
    }
  }, [createPayment, lookUpStatus, invoice.id]);

  useEffect(() => {
    // Once per dialog, also under StrictMode's double effects: each creation is a request to the provider.
    if (started.current) return;
    started.current = true;
    void start();
  }, [start]);

  const apply = (result: SandboxConfirmResult) => {
    setIntent((current) => (current ? { ...current, status: result.payment_intent.status } : current));
    const outcome = confirmOutcome(result);
    if (outcome.kind === 'success') {
      setVerifying(false);
      setInvoiceStatus('payment_authorized');
      // The success box takes the form's place and says it all.
      setMessage(null);
    } else if (outcome.kind === 'verify') {
      setVerifying(true);
      setMessage(null);
    } else {
      setVerifying(false);
      if (result.error) setInvoiceStatus('payment_failed');
      setMessage({ text: outcome.text });
    }
  };

  /** Sends the card untracked: no trace of the request (or its number) is kept in the store. */
  const confirmWith = async (send: (current: Intent) => Promise<SandboxConfirmResult>) => {
    if (phase !== 'ready' || !intent) {
      setMessage({ text: NOT_READY_TEXT });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const result = await send(intent);
      if (alive.current) apply(result);
    } catch {
      if (alive.current) setMessage({ text: UNEXPECTED_TEXT });
    } finally {
      if (alive.current) setBusy(false);
    }
  };

  const pay = (card: SandboxCardFields) =>
    confirmWith((current) =>
      dispatch(paymentsApi.endpoints.sandboxConfirm.initiate({ id: current.id, client_secret: current.client_secret, card }, { track: false })).unwrap(),
    );
  const payWithStripe = (stripe: StripeJs, card: StripeCardElement) =>
    confirmWith(async (current) =>
      stripeConfirmResult(await stripe.confirmCardPayment(current.client_secret, { payment_method: { card } }), {
        ...current,
        invoice_id: invoice.id,
        amount: invoice.total_amount,
      }),
    );
  const completeVerification = () =>
    confirmWith((current) =>
      dispatch(paymentsApi.endpoints.sandboxConfirmStep.initiate({ id: current.id, client_secret: current.client_secret }, { track: false })).unwrap(),
    );

  const paymentStatus = intent?.status ?? null;
  const banner = dialogBanner(invoiceStatus, paymentStatus, existing);
  const badge = dialogBadge(invoiceStatus, paymentStatus);
  const paid = isPaidStatus(paymentStatus);
  const showForm = phase === 'ready' && Boolean(intent?.client_secret) && !paid;
  const amount = formatMoney(invoice.total_amount);

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
