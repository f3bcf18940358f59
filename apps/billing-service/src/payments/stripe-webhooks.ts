import { Inject, Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { isUuid, type StripeWebhookResult } from '@market/contracts';
import { badRequest, conflict, notFound } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { PAYMENT_PROVIDER, PAYMENT_EVENT_TYPES, ProviderError, type PaymentEventType, type PaymentProvider, type ProviderEvent } from './payment-provider';
import { PaymentIntentsRepository } from './payment-intents.repository';
import { PaymentEventsHandler } from './payment-events.handler';
import { ProviderEventsRouter } from './provider-events.router';
import { StripeProvider } from './stripe-provider';


const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

/**
 * A verified Stripe event as the router's notice: a payment intent's (named by the intent, or by the charge or session
 * that carries it), a connected account's (account.updated), or a transfer's (transfer.created, transfer.reversed);
 * null for a type billing does not use, or one whose object is not what its type names.
 */
export function providerEventOf(event: Stripe.Event): ProviderEvent | null {
  const object = event.data.object as { id: string; object: string; payment_intent?: string | { id: string } | null };
  const at = new Date(event.created * 1000);
  if (event.type === 'account.updated') return object.object === 'account' ? { id: event.id, type: event.type, account_id: object.id, at } : null;
  if (event.type === 'transfer.created' || event.type === 'transfer.reversed') {
    return object.object === 'transfer' ? { id: event.id, type: event.type, transfer_id: object.id, at } : null;
  }
  if (!PAYMENT_EVENT_TYPES.includes(event.type as PaymentEventType)) return null;
  const intentId = object.object === 'payment_intent' ? object.id : idOf(object.payment_intent);
  if (!intentId) return null;
  return { id: event.id, type: event.type as PaymentEventType, intent_id: intentId, at };
}

/**
 * Stripe's webhooks (D12, ADR 0023): the signature is verified on the exact bytes with the webhook secret (Stripe's
 * default 300 s tolerance), then the event becomes a notice for PaymentEventsHandler, which dedupes it by Stripe's
 * event id and reconciles the intent to what Stripe says now, so order and replays do not matter. A completed
 * Checkout Session first records the intent Checkout made for the invoice.
 */
@Injectable()
export class StripeWebhooks {
  private readonly logger = new Logger('StripeWebhooks');

  constructor(
    private readonly handler: PaymentEventsHandler,
    private readonly router: ProviderEventsRouter,
    private readonly intents: PaymentIntentsRepository,
    private readonly invoices: InvoicesRepository,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_CONNECT_WEBHOOK_SECRET'>,
  ) {}

  /** Verifies and applies one delivery; a bad or stale signature is a 400 and changes nothing; 404 with the sandbox. */
  async receive(payloadBase64: string, signature: string): Promise<StripeWebhookResult> {
    const provider = this.provider;
    if (!(provider instanceof StripeProvider) || !this.config.STRIPE_WEBHOOK_SECRET) throw notFound('Not found');
    // The platform's endpoint has its own secret; the Connect endpoint (connected accounts' account.updated) has another.
    const payload = Buffer.from(payloadBase64, 'base64');
    const secrets = [this.config.STRIPE_WEBHOOK_SECRET, this.config.STRIPE_CONNECT_WEBHOOK_SECRET].filter((secret): secret is string => Boolean(secret));
    let event: Stripe.Event | null = null;
    const failures: string[] = [];
    for (const secret of secrets) {
      try {
        event = provider.stripe.webhooks.constructEvent(payload, signature, secret);
        break;
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    // The other secret's mismatch says nothing: a reason other than a mismatch (a stale timestamp) is the one to tell.
    if (!event) throw badRequest(`Webhook signature verification failed: ${failures.find((reason) => !reason.startsWith('No signatures found')) ?? failures[0]}`);
    const notice = providerEventOf(event);
    if (!notice) return { received: true, result: 'ignored' };
    if (event.type === 'checkout.session.completed' && 'intent_id' in notice) await this.recordCheckoutIntent(event.data.object, notice.intent_id);
    return { received: true, result: await this.router.handle(notice) };
  }

  /**
   * Records the intent a Checkout Session made (its metadata names the invoice), once. An unfinished dialog payment of
   * the same invoice is canceled first (one open payment per invoice); if the dialog already holds the funds, or they
   * were captured into escrow, the checkout's duplicate hold is released instead.
   */
  private async recordCheckoutIntent(session: Stripe.Checkout.Session, intentId: string): Promise<void> {
    if (await this.intents.findByProviderId(intentId)) return;
    const invoiceId = session.metadata?.invoice_id ?? '';
    const invoice = isUuid(invoiceId) ? await this.invoices.findById(invoiceId) : null;
    const remote = invoice ? await this.provider.retrieve(intentId) : null;
    if (!invoice || !remote) {
      this.logger.warn(`Checkout session ${session.id} names no invoice of ours (${invoiceId || 'none'}); its intent ${intentId} is not recorded`);
      return;
    }
    // Funds already captured into escrow for this invoice (D22): the checkout's hold is a second payment, released.
    const holding = await this.intents.findHolding(invoice.id);
    const open = holding?.status === 'succeeded' ? holding : await this.intents.findOpen(invoice.id);
    if (open && open.provider_intent_id !== intentId) {
      const duplicate = open.status === 'requires_capture' || open.status === 'succeeded';
      const release = duplicate ? intentId : open.provider_intent_id;
      await this.provider.cancel(release, duplicate ? 'requested_by_customer' : 'abandoned').catch((error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
      });
      if (duplicate) {
        this.logger.warn(`Invoice ${invoice.invoice_number} was already held by ${open.provider_intent_id}; released checkout's hold ${intentId}`);
        return;
      }
      await this.handler.sync(open.provider_intent_id);
    }
    const recorded = await this.intents.insertStarted({
      provider: 'stripe',
      provider_intent_id: intentId,
      invoice_id: invoice.id,
      amount_cents: remote.amount_cents,
      client_secret: remote.client_secret,
      idempotency_key: `checkout-${session.id}`,
    });
    // Another payment opened meanwhile: answer non-2xx so Stripe redelivers and this runs again.
    if (!recorded && !(await this.intents.findByProviderId(intentId))) {
      throw conflict(`Invoice ${invoice.invoice_number} has another open payment; checkout intent ${intentId} not recorded yet`);
    }
  }
}
