/** The provider's own status names (Stripe's PaymentIntent statuses). */
export type ProviderIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled';

/** Why a provider canceled an intent: `expired` is a hold that lapsed uncaptured (D11). */
export type CancellationReason = 'expired' | 'requested_by_customer' | 'abandoned';

/** A payment intent as the provider knows it now: the truth every event is reconciled to (ADR 0020). */
export interface ProviderIntent {
  id: string;
  status: ProviderIntentStatus;
  amount_cents: number;
  currency: string;
  client_secret: string;
  authorized_at: Date | null;
  captured_at: Date | null;
  refunded_at: Date | null;
  canceled_at: Date | null;
  cancellation_reason: CancellationReason | null;
  last_error: string | null;
}

/** The event types handled, named as Stripe's webhooks name them. */
export const PROVIDER_EVENT_TYPES = [
  'payment_intent.amount_capturable_updated',
  'checkout.session.completed',
  'payment_intent.payment_failed',
  'payment_intent.succeeded',
  'payment_intent.canceled',
  'payment_intent.requires_action',
  'charge.refunded',
] as const;
export type ProviderEventType = (typeof PROVIDER_EVENT_TYPES)[number];

/** A provider's notice that an intent changed (a Stripe webhook, or the sandbox's equivalent). */
export interface ProviderEvent {
  id: string;
  type: ProviderEventType;
  intent_id: string;
  at: Date;
}

/** A refusal by the provider, with a code the service maps to SPEC §8 texts. */
export class ProviderError extends Error {
  constructor(
    readonly code: 'already_captured' | 'already_refunded' | 'not_capturable' | 'not_refundable' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

export interface CreateIntentInput {
  amount_cents: number;
  currency: 'usd';
  /** Retrying with the same key returns the same intent (a double click makes one intent). */
  idempotency_key: string;
  metadata: Record<string, string>;
}

export interface CheckoutSessionInput {
  /** The intent the page confirms (sandbox); null where the provider's checkout makes its own intent (Stripe). */
  intent_id: string | null;
  invoice: { id: string; invoice_number: string; website_title: string; amount_cents: number };
  /** A repeated request with the same key answers the same session. */
  idempotency_key: string;
  success_url: string;
  cancel_url: string;
}

/** A SetupIntent as the provider knows it (ADR 0041): a card verified for later use, nothing charged. */
export interface ProviderSetupIntent {
  id: string;
  status: 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';
  client_secret: string;
  /** The verified card's last four digits, once it succeeded. */
  card_last4: string | null;
  /** Who it was made for (its metadata), so a confirmation can be matched to its member. */
  user_id: string | null;
  last_error: string | null;
}

export interface CreateSetupIntentInput {
  user_id: string;
  /** Retrying with the same key returns the same SetupIntent. */
  idempotency_key: string;
}

/**
 * What the billing service needs from a card payment provider (D12). Every method that changes an intent makes the
 * provider emit events, which reach PaymentEventsHandler (Stripe: signed webhooks; sandbox: in-process delivery).
 * No method is ever called inside a database transaction or under a row lock (ADR 0047): a remote provider may take
 * its full timeout and retries, and the locks would be held all that time.
 */
export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  /** True when a checkout session makes its own intent (Stripe Checkout), recorded when the session completes. */
  readonly checkoutMakesIntent: boolean;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  retrieve(intentId: string): Promise<ProviderIntent | null>;
  /** Captures the full held amount (manual capture, D11). */
  capture(intentId: string): Promise<ProviderIntent>;
  /** Cancels an uncaptured intent or hold. */
  cancel(intentId: string, reason: CancellationReason): Promise<ProviderIntent>;
  /** Refunds a captured payment in full. */
  refund(intentId: string): Promise<ProviderIntent>;
  /** A hosted checkout page for an intent; `url` is where the buyer is sent. */
  createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }>;
  /** Starts verifying a card for later use (ADR 0041): confirmed in the browser (Stripe.js, or the sandbox's form). */
  createSetupIntent(input: CreateSetupIntentInput): Promise<ProviderSetupIntent>;
  retrieveSetupIntent(setupIntentId: string): Promise<ProviderSetupIntent | null>;
  /** Registers the one consumer of the provider's events (the sandbox calls it; Stripe's arrive by webhook). */
  onEvent(listener: (event: ProviderEvent) => Promise<void>): void;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
