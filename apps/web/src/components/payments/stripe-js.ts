import type { SandboxConfirmResult } from '@market/contracts';

/** The parts of Stripe.js (v3) the payment dialog uses. */
export interface StripeCardElement {
  mount(element: HTMLElement): void;
  destroy(): void;
}
export interface StripeJs {
  elements(): { create(type: 'card', options?: Record<string, unknown>): StripeCardElement };
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement } },
  ): Promise<{ error?: { code?: string; message?: string }; paymentIntent?: { id: string; status: string } }>;
  /** Verifies a card for later use (a SetupIntent, ADR 0041): nothing is charged. */
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement } },
  ): Promise<{ error?: { code?: string; message?: string }; setupIntent?: { id: string; status: string } }>;
}
type StripeFactory = (publishableKey: string) => StripeJs;

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** Whether a payment is confirmed with Stripe.js: only when the server chose Stripe and sent its publishable key (D12). */
export function usesStripe(payment: { provider: string; publishable_key: string | null }): payment is { provider: 'stripe'; publishable_key: string } {
  return payment.provider === 'stripe' && typeof payment.publishable_key === 'string' && payment.publishable_key.startsWith('pk_');
}

let loading: Promise<StripeFactory> | null = null;

/** Loads Stripe.js once (never before a Stripe payment needs it) and returns a client for the publishable key. */
export async function loadStripeJs(publishableKey: string, doc: Document = document): Promise<StripeJs> {
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const present = (window as unknown as { Stripe?: StripeFactory }).Stripe;
    if (present) return resolve(present);
    const script = doc.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = () => {
      const factory = (window as unknown as { Stripe?: StripeFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error('Stripe.js did not start'));
    };
    script.onerror = () => reject(new Error('Stripe.js could not be loaded'));
    doc.head.appendChild(script);
  }).catch((error: Error) => {
    loading = null;
    throw error;
  });
  return (await loading)(publishableKey);
}

/** Stripe.js's confirmation answer in the shape the dialog already reads (the sandbox's confirmation result). */
export function stripeConfirmResult(
  answer: { error?: { code?: string; message?: string }; paymentIntent?: { id: string; status: string } },
  current: { id: string; status: string; invoice_id: string; amount: number },
): SandboxConfirmResult {
  const status = answer.paymentIntent?.status ?? current.status;
  return {
    payment_intent: { id: current.id, status, invoice_id: current.invoice_id, amount: current.amount, last_error: answer.error?.message ?? null },
    error: answer.error ? { code: answer.error.code ?? 'card_error', message: answer.error.message ?? '' } : null,
  };
}
