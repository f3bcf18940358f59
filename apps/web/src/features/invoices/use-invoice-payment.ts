import { useCallback, useEffect, useRef, useState } from 'react';
import type { SandboxConfirmResult } from '@market/contracts';
import { useAppDispatch } from '../../lib/store-hooks';
import { paymentsApi, useCreatePaymentMutation, usePaymentStatusMutation, type SandboxCardFields } from '../../api/payments.api';
import { formatMoney } from '../../lib/money';
import { stripeConfirmResult, usesStripe, type StripeCardElement, type StripeJs } from '../../components/payments/stripe-js';
import {
  confirmOutcome,
  creationFailure,
  dialogBadge,
  dialogBanner,
  existingPayment,
  existingPaymentStep,
  INIT_FAILED_TEXT,
  isPaidStatus,
  NOT_READY_TEXT,
  UNEXPECTED_TEXT,
} from '../../components/payments/payments';
import type { DialogInvoice } from './PaymentDialog';

interface Intent {
  id: string;
  client_secret: string;
  status: string;
}

/**
 * The payment of an invoice behind PaymentDialog (SPEC §4, ADR 0022): on first use it asks for a payment (a 409
 * continues the open one), then confirms it with a sandbox card or Stripe, and says what happened.
 */
export function useInvoicePayment(invoice: DialogInvoice) {
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

  return { phase, intent, stripeKey, message, verifying, busy, pay, payWithStripe, completeVerification, paymentStatus, banner, badge, paid, showForm, amount };
}
