import Stripe from 'stripe';
import type { BillingConfig } from '../billing.config';
import {
  ProviderError,
  type CancellationReason,
  type CheckoutSessionInput,
  type CreateIntentInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderIntent,
  type ProviderIntentStatus,
  type CreateSetupIntentInput,
  type ProviderSetupIntent,
} from './payment-provider';
import { StripeConnect, balanceEntryOf } from './stripe-connect';

/**
 * What retrieve expands: the charge tells when the hold was made, its balance transaction when and what the capture
 * brought in (gross, Stripe's fee, net), and its refunds when and what they took out (a charge's refunds come only
 * expanded).
 */
const EXPAND = ['latest_charge.balance_transaction', 'latest_charge.refunds.data.balance_transaction'];

/** The SDK client for the configured account; host, port and protocol point it at a stand-in or a proxy. */
export function stripeClient(
  config: Pick<BillingConfig, 'STRIPE_SECRET_KEY' | 'STRIPE_API_HOST' | 'STRIPE_API_PORT' | 'STRIPE_API_PROTOCOL'>,
): Stripe {
  if (!config.STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is required for the Stripe provider');
  return new Stripe(config.STRIPE_SECRET_KEY, {
    // Retried calls carry their idempotency key, so a retry never makes a second intent, capture or refund.
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(config.STRIPE_API_HOST ? { host: config.STRIPE_API_HOST } : {}),
    ...(config.STRIPE_API_PORT ? { port: config.STRIPE_API_PORT } : {}),
    ...(config.STRIPE_API_PROTOCOL ? { protocol: config.STRIPE_API_PROTOCOL } : {}),
  });
}

const seconds = (value: number | null | undefined): Date | null => (typeof value === 'number' ? new Date(value * 1000) : null);

/** Stripe's cancellation reasons in ours: Stripe cancels a lapsed hold itself ('automatic'); we send 'abandoned' for one. */
function reasonOf(reason: Stripe.PaymentIntent.CancellationReason | null): CancellationReason | null {
  if (reason === null) return null;
  if (reason === 'automatic' || reason === 'abandoned') return 'expired';
  return 'requested_by_customer';
}

/** A PaymentIntent (retrieved with EXPAND) as the port's ProviderIntent: the facts the reconciliation needs. */
export function providerIntentOf(intent: Stripe.PaymentIntent): ProviderIntent {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  // A charge that is paid was authorised: for manual capture, at its creation.
  const authorized = charge && charge.paid ? seconds(charge.created) : null;
  const balance = charge && typeof charge.balance_transaction === 'object' ? charge.balance_transaction : null;
  const captured = charge?.captured ? (seconds(balance?.created) ?? authorized) : null;
  const refunds = [...(charge?.refunds?.data ?? [])].sort((a, b) => b.created - a.created);
  const refunded = captured && charge?.refunded ? (refunds.length > 0 ? seconds(refunds[0].created) : captured) : null;
  return {
    id: intent.id,
    status: intent.status as ProviderIntentStatus,
    amount_cents: intent.amount,
    currency: intent.currency,
    client_secret: intent.client_secret ?? '',
    authorized_at: authorized,
    captured_at: captured,
    refunded_at: refunded,
    canceled_at: seconds(intent.canceled_at),
    cancellation_reason: intent.status === 'canceled' ? reasonOf(intent.cancellation_reason) : null,
    last_error: intent.last_payment_error?.message ?? null,
    // Only an authorised charge: a declined card's failed charge is never a payout's source.
    charge_id: authorized && charge ? charge.id : null,
    capture_balance: captured ? balanceEntryOf(balance) : null,
    // A released hold is marked refunded too, but no money moved: only a captured charge's refund is a balance entry.
    refund_balance: refunded ? (refunds.map((refund) => balanceEntryOf(refund.balance_transaction)).find((entry) => entry !== null) ?? null) : null,
  };
}

/** A SetupIntent (retrieved with its payment_method expanded) as the port's ProviderSetupIntent (ADR 0041). */
export function providerSetupIntentOf(setup: Stripe.SetupIntent): ProviderSetupIntent {
  const method = typeof setup.payment_method === 'object' ? setup.payment_method : null;
  return {
    id: setup.id,
    status: setup.status as ProviderSetupIntent['status'],
    client_secret: setup.client_secret ?? '',
    card_last4: method?.card?.last4 ?? null,
    user_id: setup.metadata?.user_id ?? null,
    last_error: setup.last_setup_error?.message ?? null,
  };
}

/**
 * The Stripe provider (D12, ADR 0023) through the official SDK: PaymentIntents with manual capture, Checkout Sessions
 * for the hosted page, and an idempotency key on every call that changes something (derived from the service's
 * key, or from the intent the call acts on). Its events arrive as signed webhooks (StripeWebhooks), not here.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly checkoutMakesIntent = true;
  /** Sellers' Express accounts, transfers and the balance transactions (D22). */
  readonly connect: StripeConnect;

  constructor(readonly stripe: Stripe) {
    this.connect = new StripeConnect(stripe);
  }

  onEvent(_listener: (event: ProviderEvent) => Promise<void>): void {
    // Stripe's events come by webhook (StripeWebhooks hands them to PaymentEventsHandler); nothing to register.
  }

  async createIntent(input: CreateIntentInput): Promise<ProviderIntent> {
    const created = await this.stripe.paymentIntents.create(
      { amount: input.amount_cents, currency: input.currency, capture_method: 'manual', metadata: input.metadata },
      { idempotencyKey: input.idempotency_key },
    );
    return providerIntentOf(created);
  }

  /** A card SetupIntent for later, off-session use (ADR 0041); its card's last four come from the expanded method. */
  async createSetupIntent(input: CreateSetupIntentInput): Promise<ProviderSetupIntent> {
    const setup = await this.stripe.setupIntents.create(
      { usage: 'off_session', metadata: { user_id: input.user_id } },
      { idempotencyKey: input.idempotency_key },
    );
    return providerSetupIntentOf(setup);
  }

  async retrieveSetupIntent(setupIntentId: string): Promise<ProviderSetupIntent | null> {
    try {
      return providerSetupIntentOf(await this.stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] }));
    } catch (error) {
      if (isStripeError(error) && error.code === 'resource_missing') return null;
      throw error;
    }
  }

  async retrieve(intentId: string): Promise<ProviderIntent | null> {
    try {
      return providerIntentOf(await this.stripe.paymentIntents.retrieve(intentId, { expand: EXPAND }));
    } catch (error) {
      if (isStripeError(error) && error.code === 'resource_missing') return null;
      throw error;
    }
  }

  async capture(intentId: string): Promise<ProviderIntent> {
    await this.refusals(intentId, () => this.stripe.paymentIntents.capture(intentId, {}, { idempotencyKey: `${intentId}-capture` }), (current) =>
      current.status === 'succeeded'
        ? new ProviderError('already_captured', 'This payment has already been captured.')
        : new ProviderError('not_capturable', `This payment cannot be captured because it has a status of ${current.status}.`),
    );
    return this.current(intentId);
  }

  async cancel(intentId: string, reason: CancellationReason): Promise<ProviderIntent> {
    // Stripe takes no 'expired': a lapsed hold is canceled as 'abandoned', which reads back as expired.
    const stripeReason = reason === 'requested_by_customer' ? 'requested_by_customer' : 'abandoned';
    await this.refusals(
      intentId,
      () => this.stripe.paymentIntents.cancel(intentId, { cancellation_reason: stripeReason }, { idempotencyKey: `${intentId}-cancel-${stripeReason}` }),
      (current) =>
        current.status === 'succeeded'
          ? new ProviderError('not_refundable', 'This payment was captured; refund it instead.')
          : new ProviderError('already_refunded', 'This payment has already been canceled.'),
    );
    return this.current(intentId);
  }

  async refund(intentId: string): Promise<ProviderIntent> {
    const current = await this.current(intentId);
    // An uncaptured hold is released by canceling it; only captured funds are refunded.
    if (current.status === 'requires_capture') return this.cancel(intentId, 'requested_by_customer');
    if (current.refunded_at) throw new ProviderError('already_refunded', 'This payment has already been refunded.');
    if (current.status !== 'succeeded') throw new ProviderError('not_refundable', `This payment cannot be refunded because it has a status of ${current.status}.`);
    await this.refusals(intentId, () => this.stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: `${intentId}-refund` }), () =>
      new ProviderError('already_refunded', 'This payment has already been refunded.'),
    );
    return this.current(intentId);
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }> {
    const metadata = { invoice_id: input.invoice.id, invoice_number: input.invoice.invoice_number, website_title: input.invoice.website_title };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: input.invoice.amount_cents,
              product_data: { name: `${input.invoice.website_title} (invoice ${input.invoice.invoice_number})` },
            },
          },
        ],
        payment_intent_data: { capture_method: 'manual', metadata },
        metadata,
        client_reference_id: input.invoice.id,
        success_url: input.success_url,
        cancel_url: input.cancel_url,
      },
      { idempotencyKey: input.idempotency_key },
    );
    if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a URL`);
    return { id: session.id, url: session.url };
  }

  private async current(intentId: string): Promise<ProviderIntent> {
    const intent = await this.retrieve(intentId);
    if (!intent) throw new ProviderError('not_found', 'No such payment intent');
    return intent;
  }

  /** Runs a call; Stripe's refusals of the intent's state become the port's ProviderErrors (SPEC §8 texts). */
  private async refusals(intentId: string, call: () => Promise<unknown>, refusal: (current: ProviderIntent) => ProviderError): Promise<void> {
    try {
      await call();
    } catch (error) {
      if (!isStripeError(error)) throw error;
      if (error.code === 'resource_missing') throw new ProviderError('not_found', 'No such payment intent');
      if (error.code === 'charge_already_refunded') throw new ProviderError('already_refunded', 'This payment has already been refunded.');
      if (error.code === 'payment_intent_unexpected_state') throw refusal(await this.current(intentId));
      throw error;
    }
  }
}

/** True for an error the Stripe API answered (not a network failure). */
export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeError;
}
