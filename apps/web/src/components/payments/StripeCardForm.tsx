import { useEffect, useRef, useState, type FormEvent } from 'react';
import { loadStripeJs, type StripeCardElement, type StripeJs } from './stripe-js';

export interface StripeCardFormProps {
  publishableKey: string;
  submitLabel: string;
  ready: boolean;
  busy: boolean;
  /** Confirms with Stripe.js; the dialog turns the answer into its outcome. */
  onPay: (stripe: StripeJs, card: StripeCardElement) => void;
}

/**
 * Stripe Elements' card field (D12), used only when the server chose Stripe: the card number goes from Stripe's own
 * iframe straight to Stripe, never through this site. Stripe.js is loaded here, on first use, and nowhere else.
 */
export function StripeCardForm({ publishableKey, submitLabel, ready, busy, onPay }: StripeCardFormProps) {
  const mountPoint = useRef<HTMLDivElement>(null);
  const [client, setClient] = useState<{ stripe: StripeJs; card: StripeCardElement } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let card: StripeCardElement | null = null;
    let alive = true;
    loadStripeJs(publishableKey)
      .then((stripe) => {
        if (!alive || !mountPoint.current) return;
        card = stripe.elements().create('card', { hidePostalCode: true });
        card.mount(mountPoint.current);
        setClient({ stripe, card });
      })
      .catch((error: Error) => {
        if (alive) setLoadError(`Failed to load payment form: ${error.message}`);
      });
    return () => {
      alive = false;
      card?.destroy();
    };
  }, [publishableKey]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (client && !busy) onPay(client.stripe, client.card);
  };

  return (
    <form className="stripe-card-form" onSubmit={submit} noValidate>
      <label className="field">
        <span>Card</span>
        <div ref={mountPoint} className="stripe-card-element" data-testid="stripe-card-element" />
      </label>
      {loadError && (
        <div className="alert alert-error" role="alert">
          {loadError}
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={!ready || !client || busy}>
        {busy ? 'Processing Payment...' : submitLabel}
      </button>
    </form>
  );
}
