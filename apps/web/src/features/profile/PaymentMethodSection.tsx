import { useState } from 'react';
import type { PaymentMethodSetup } from '@market/contracts';
import { formatDollars, LARGE_BID_MARGIN, LARGE_BID_MULTIPLE } from '@market/domain';
import type { SandboxCardFields } from '../../api/payments.api';
import { SandboxCardForm } from '../../components/payments/SandboxCardForm';
import { StripeCardForm } from '../../components/payments/StripeCardForm';
import { usesStripe, type StripeCardElement, type StripeJs } from '../../components/payments/stripe-js';
import { errorDetail } from '../../lib/error-detail';
import { usePaymentMethodQuery, useSandboxConfirmSetupMutation, useSetupPaymentMethodMutation, useSyncPaymentMethodMutation } from './payment-method.api';

type Notice = { kind: 'success' | 'error'; text: string } | null;

/** Why a member saves a card, in the words of the rule (ADR 0041). */
export const PAYMENT_METHOD_WHY = `Bids far above the current price (more than ${LARGE_BID_MULTIPLE} times the minimum next bid, and at least ${formatDollars(
  LARGE_BID_MARGIN,
)} above it) need a verified card on file. Saving a card charges nothing.`;

/**
 * Profile's "Payment method" (ADR 0041): the saved card, or a form to verify one through a SetupIntent (the sandbox's
 * TEST MODE form, or Stripe Elements when the server runs Stripe). The server decides whether the card is verified.
 */
export function PaymentMethodSection() {
  const { data, isLoading, isError } = usePaymentMethodQuery();
  const [start, { isLoading: starting }] = useSetupPaymentMethodMutation();
  const [confirmSandbox] = useSandboxConfirmSetupMutation();
  const [sync] = useSyncPaymentMethodMutation();
  const [setup, setSetup] = useState<PaymentMethodSetup | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const open = async () => {
    setNotice(null);
    try {
      setSetup(await start().unwrap());
    } catch (failure) {
      setNotice({ kind: 'error', text: errorDetail(failure, 'Could not start saving a card. Please try again.') });
    }
  };
  const finish = (result: { error: { message: string } | null; payment_method: { verified: boolean; last4: string | null } }) => {
    if (result.error || !result.payment_method.verified) {
      setNotice({ kind: 'error', text: result.error?.message ?? 'The card could not be verified. Please try another card.' });
      return;
    }
    setSetup(null);
    setNotice({ kind: 'success', text: `Card ending in ${result.payment_method.last4 ?? '····'} saved. You can now place large bids.` });
  };
  const withBusy = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (failure) {
      setNotice({ kind: 'error', text: errorDetail(failure, 'The card could not be saved. Please try again.') });
    } finally {
      setBusy(false);
    }
  };
  const saveSandbox = (card: SandboxCardFields) =>
    withBusy(async () => {
      if (setup) finish(await confirmSandbox({ id: setup.setup_intent_id, client_secret: setup.client_secret, card }).unwrap());
    });
  const saveStripe = (stripe: StripeJs, card: StripeCardElement) =>
    withBusy(async () => {
      if (!setup) return;
      const confirmed = await stripe.confirmCardSetup(setup.client_secret, { payment_method: { card } });
      if (confirmed.error) {
        setNotice({ kind: 'error', text: confirmed.error.message ?? 'The card could not be verified.' });
        return;
      }
      finish(await sync(setup.setup_intent_id).unwrap());
    });

  return (
    <section className="card" id="payment-method" aria-labelledby="payment-method-title" style={{ marginBottom: '1.5rem' }}>
      <h2 id="payment-method-title">Payment method</h2>
      <p className="muted">{PAYMENT_METHOD_WHY}</p>
      {isLoading && <p className="muted">Loading...</p>}
      {isError && <p className="field-error">Could not load your payment method.</p>}
      {data && (
        <p data-testid="payment-method-status">
          {data.verified ? (
            <>
              <span className="badge badge-green">Verified</span> Card ending in {data.last4 ?? '····'}
            </>
          ) : (
            <span className="badge badge-gray">No card saved</span>
          )}
        </p>
      )}
      {notice && (
        <div className={`alert ${notice.kind === 'success' ? 'alert-success' : 'alert-error'}`} role={notice.kind === 'success' ? 'status' : 'alert'}>
          {notice.text}
        </div>
      )}
      {!setup && (
        <button type="button" className="btn btn-secondary" onClick={open} disabled={starting || isLoading}>
          {starting ? 'Starting...' : data?.verified ? 'Replace card' : 'Add a card'}
        </button>
      )}
      {setup &&
        (usesStripe(setup) ? (
          <StripeCardForm publishableKey={setup.publishable_key} submitLabel="Save card" ready busy={busy} onPay={saveStripe} />
        ) : (
          <SandboxCardForm submitLabel="Save card" ready busy={busy} busyLabel="Saving card..." onPay={saveSandbox} />
        ))}
    </section>
  );
}
