import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  PAYMENT_IN_PROGRESS_MESSAGE,
  type Actor,
  type AdminPaymentIntentDto,
  type CapturePaymentRequest,
  type CreatePaymentResponse,
  type PaymentActionResponse,
  type PaymentIntentStatusDto,
  type RefundPaymentRequest,
  type SandboxCard,
  type SandboxCheckoutCard,
  type SandboxCheckoutResult,
  type SandboxConfirmResult,
} from '@market/contracts';
import { canPay, dollarsToCents, sandboxCardOutcome } from '@market/domain';
import { AppError, badRequest, conflict, forbidden, notFound, requireActor, requireAdmin } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { viewerOf } from '../invoices/invoice.presenter';
import { PAYMENT_PROVIDER, ProviderError, type PaymentProvider, type ProviderIntent } from './payment-provider';
import { PaymentAdminActs, type AdminPaymentAction } from './payment-admin-acts';
import { syncSteps } from './payment-sync';
import { PaymentIntentsRepository, type AdminPaymentIntentRecord, type PaymentIntentRecord } from './payment-intents.repository';
import { PaymentEventsHandler } from './payment-events.handler';
import { SandboxProvider, type SandboxConfirmation } from './sandbox.provider';
import { adminDto, statusDto } from './payment.presenter';
import { TransferRepository } from '../transfer/transfer.repository';

const ADMIN_LIST_LIMIT = 1000;
export const PAYMENT_CREATED_MESSAGE = 'Payment initialized. Enter your card details to complete the payment.';
export const PAYMENT_RETRY_MESSAGE = 'Your previous payment attempt failed. You can retry with another card.';
const NOT_FOUND = 'Payment intent not found';

/**
 * Card payments (D11, D12): the buyer starts or continues one payment per invoice, confirms it with the provider's
 * client (here the sandbox's card form), and a real admin releases (captures) or refunds the held funds. Local state
 * changes only through PaymentEventsHandler, which reconciles with the provider after each call here.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger('PaymentsService');

  constructor(
    private readonly intents: PaymentIntentsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly events: PaymentEventsHandler,
    private readonly acts: PaymentAdminActs,
    private readonly transfer: TransferRepository,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'PUBLIC_URL' | 'STRIPE_PUBLISHABLE_KEY'>,
  ) {}

  /**
   * Starts the buyer's payment of an invoice, or answers the open one (`existing: true`, 409 at the gateway). An open
   * intent whose last card was declined is handed back for a retry instead (200): a decline keeps the intent, as
   * Stripe does. Two racing calls derive the same idempotency key, so they get one intent.
   */
  async createPayment(actor: Actor | null, invoiceId: string): Promise<CreatePaymentResponse> {
    const invoice = await this.buyersInvoice(actor, invoiceId);
    const { intent, existing } = await this.openOrNew(invoice);
    if (existing && intent.last_error) return this.creationAnswer(intent, false, PAYMENT_RETRY_MESSAGE);
    return this.creationAnswer(intent, existing, existing ? PAYMENT_IN_PROGRESS_MESSAGE : PAYMENT_CREATED_MESSAGE);
  }

  /** A hosted checkout page for the invoice's payment: the sandbox's on the site's origin, Stripe's on Stripe's. */
  async createCheckoutSession(actor: Actor | null, invoiceId: string): Promise<{ checkout_url: string }> {
    return { checkout_url: await this.checkoutFor(await this.buyersInvoice(actor, invoiceId)) };
  }

  /** The checkout URL for an invoice just bought (buy-now, SPEC §4's first outcome); the caller is its buyer. */
  async checkoutFor(invoice: InvoiceRecord): Promise<string> {
    // Stripe Checkout makes its own intent (recorded from checkout.session.completed), so none is opened for it here.
    const ownIntent = this.provider.checkoutMakesIntent;
    const intent = ownIntent ? await this.intents.findOpen(invoice.id) : (await this.openOrNew(invoice)).intent;
    if (intent?.status === 'requires_capture') throw badRequest('This invoice is already paid: the funds are held until the domain transfer is verified');
    if (!intent && !canPay(invoice.status)) throw badRequest(`This invoice cannot be paid; it is ${invoice.status.replace(/_/g, ' ')}`);
    const site = this.config.PUBLIC_URL.replace(/\/+$/, '');
    const query = `invoice_id=${encodeURIComponent(invoice.id)}`;
    const attempt = (await this.intents.closedCount(invoice.id)) + 1;
    const session = await this.provider.createCheckoutSession({
      intent_id: ownIntent ? null : (intent?.provider_intent_id ?? null),
      invoice: { id: invoice.id, invoice_number: invoice.invoice_number, website_title: invoice.website_title, amount_cents: invoice.amount_cents },
      idempotency_key: `invoice-${invoice.id}-attempt-${attempt}-checkout`,
      success_url: `${site}/payment-success?session_id={CHECKOUT_SESSION_ID}&${query}`,
      cancel_url: `${site}/payment-cancel?${query}`,
    });
    // Stripe's page address is its own (its fragment carries state); the sandbox's page reads the invoice from it.
    if (ownIntent) return session.url;
    const url = new URL(session.url);
    url.searchParams.set('invoice_id', invoice.id);
    return url.toString();
  }

  /** A payment's status for its buyer, its seller or a real admin; anyone else gets 404. */
  async status(actor: Actor | null, id: string): Promise<PaymentIntentStatusDto> {
    const user = requireActor(actor);
    const intent = await this.intents.findById(id);
    const invoice = intent ? await this.invoices.findById(intent.invoice_id) : null;
    if (!intent || !invoice || !viewerOf(user, invoice)) throw notFound(NOT_FOUND);
    return statusDto(intent);
  }

  /** The sandbox card form's confirmation (Stripe.js's stand-in): a test card decides (D12); the number goes nowhere. */
  async sandboxConfirm(actor: Actor | null, id: string, card: SandboxCard): Promise<SandboxConfirmResult> {
    const { sandbox, intent } = await this.sandboxIntent(actor, id, card.client_secret);
    const outcome = cardOutcome(card);
    return this.confirmation(intent, await sandbox.confirm(intent.provider_intent_id, outcome));
  }

  /** Completes a requires_action intent's confirmation step (test card 3184). */
  async sandboxConfirmStep(actor: Actor | null, id: string, clientSecret: string): Promise<SandboxConfirmResult> {
    const { sandbox, intent } = await this.sandboxIntent(actor, id, clientSecret);
    return this.confirmation(intent, await sandbox.confirmStep(intent.provider_intent_id));
  }

  /**
   * The sandbox's hosted checkout page submits the card here (the buyer, signed in); the page is its confirmation
   * step, so a 3184 card is confirmed and its step completed at once. Answers where to send the buyer next.
   */
  async sandboxCompleteCheckout(actor: Actor | null, sessionId: string, card: SandboxCheckoutCard): Promise<SandboxCheckoutResult> {
    const user = requireActor(actor);
    const sandbox = this.sandbox();
    const session = await sandbox.checkoutSession(sessionId);
    const local = session ? await this.intents.findByProviderId(session.intent_id) : null;
    const invoice = local ? await this.invoices.findById(local.invoice_id) : null;
    if (!session || !local || !invoice || invoice.buyer_id !== user.user_id) throw notFound('Checkout session not found');
    const outcome = cardOutcome(card);
    let result = await sandbox.confirm(session.intent_id, outcome);
    if (!result.error && result.intent.status === 'requires_action') result = await sandbox.confirmStep(session.intent_id);
    const synced = (await this.events.sync(session.intent_id)) ?? local;
    const authorized = synced.status === 'requires_capture' || synced.status === 'succeeded';
    if (authorized) await sandbox.markCheckoutComplete(sessionId);
    return { redirect_url: authorized ? session.success_url : session.cancel_url, status: synced.status, error: result.error };
  }

  /** Every payment intent for the admin Payments tab, with the capture deadline of holds (D11). Real admins only. */
  async adminList(actor: Actor | null): Promise<{ payment_intents: AdminPaymentIntentDto[] }> {
    requireAdmin(actor);
    const now = new Date();
    const rows = await this.intents.listWithInvoices(ADMIN_LIST_LIMIT);
    const disputes = await this.transfer.latestFor(rows.map((row) => row.invoice_id));
    return { payment_intents: rows.map((row) => adminDto(row, now, disputes.get(row.invoice_id) ?? null)) };
  }

  /** Releases held funds (admin "Release Funds"): the payment succeeds and the invoice is paid (D11). */
  async capture(actor: Actor | null, id: string, request: CapturePaymentRequest): Promise<PaymentActionResponse> {
    const admin = requireAdmin(actor);
    const intent = await this.adminIntent(id);
    if (typeof request.amount_to_capture === 'number' && dollarsToCents(request.amount_to_capture) !== intent.amount_cents) {
      throw badRequest('Partial capture is not supported: capture the full amount');
    }
    if (intent.status === 'succeeded') throw badRequest('This payment has already been captured: the funds were already released.');
    if (intent.status !== 'requires_capture') {
      throw badRequest(`This payment cannot be captured because it is not in a capturable state (${intent.status}).`);
    }
    // A disputed invoice is decided with a note (resolve-dispute); from here on a dispute can no longer be opened (ADR 0039).
    const gate = await this.transfer.beginRelease(intent.invoice_id, 'capture');
    if (!gate.ok) throw conflict(gate.why);
    let remote: ProviderIntent;
    try {
      remote = await this.call(() => this.provider.capture(intent.provider_intent_id), 'capture');
    } catch (error) {
      // An answer lost after the provider captured (a timeout) must not let a dispute open on money already released:
      // the release mark is cleared only when the provider still holds the funds, or cannot say (ADR 0039).
      const still = await this.provider.retrieve(intent.provider_intent_id).catch(() => null);
      if (!still || still.status === 'requires_capture') await this.transfer.clearRelease(intent.invoice_id);
      throw error;
    }
    await this.audited(intent, admin, 'payment.captured', remote);
    this.logger.log(`Admin ${admin.user_id} captured payment ${id}: ${request.reason ?? 'no reason given'}`);
    return { message: 'Payment captured successfully!', payment_intent: await this.synced(intent) };
  }

  /** Refunds (admin "Refund"): cancels an uncaptured hold, or refunds a captured payment (D11). */
  async refund(actor: Actor | null, id: string, request: RefundPaymentRequest): Promise<PaymentActionResponse> {
    const admin = requireAdmin(actor);
    const intent = await this.adminIntent(id);
    if (typeof request.amount_to_refund === 'number' && dollarsToCents(request.amount_to_refund) !== intent.amount_cents) {
      throw badRequest('Partial refunds are not supported: refund the full amount');
    }
    if (intent.refunded_at) throw badRequest('This payment has already been refunded.');
    const gate = await this.transfer.beginRelease(intent.invoice_id, 'refund');
    if (!gate.ok) throw conflict(gate.why);
    let remote: ProviderIntent;
    if (intent.status === 'requires_capture') {
      remote = await this.call(() => this.provider.cancel(intent.provider_intent_id, 'requested_by_customer'), 'refund');
    } else if (intent.status === 'succeeded') {
      remote = await this.call(() => this.provider.refund(intent.provider_intent_id), 'refund');
    } else if (intent.status === 'canceled') {
      throw badRequest('This payment was already canceled; there is nothing to refund.');
    } else {
      throw badRequest(`This payment cannot be refunded because no funds are held (${intent.status}).`);
    }
    await this.audited(intent, admin, 'payment.refunded', remote);
    this.logger.log(`Admin ${admin.user_id} refunded payment ${id}: ${request.reason ?? 'no reason given'}`);
    return { message: 'Payment refunded successfully!', payment_intent: await this.synced(intent) };
  }

  /** The invoice's open intent, or a new one (attempt n+1) when it has none and is payable. */
  private async openOrNew(invoice: InvoiceRecord): Promise<{ intent: PaymentIntentRecord; existing: boolean }> {
    const open = await this.intents.findOpen(invoice.id);
    if (open) return { intent: open, existing: true };
    if (!canPay(invoice.status)) throw badRequest(`This invoice cannot be paid; it is ${invoice.status.replace(/_/g, ' ')}`);
    const attempt = (await this.intents.closedCount(invoice.id)) + 1;
    const idempotencyKey = `invoice-${invoice.id}-attempt-${attempt}`;
    const remote = await this.provider.createIntent({
      amount_cents: invoice.amount_cents,
      currency: 'usd',
      idempotency_key: idempotencyKey,
      metadata: { invoice_id: invoice.id, invoice_number: invoice.invoice_number, website_title: invoice.website_title },
    });
    const inserted = await this.intents.insertStarted({
      provider: this.provider.name,
      provider_intent_id: remote.id,
      invoice_id: invoice.id,
      amount_cents: invoice.amount_cents,
      client_secret: remote.client_secret,
      idempotency_key: idempotencyKey,
    });
    if (inserted) return { intent: inserted, existing: false };
    // A racing call (a double click) recorded it first: answer its intent.
    const winner = await this.intents.findOpen(invoice.id);
    if (!winner) throw new AppError('conflict', 'The payment changed while it was being created; please try again');
    return { intent: winner, existing: true };
  }

  private creationAnswer(intent: PaymentIntentRecord, existing: boolean, message: string): CreatePaymentResponse {
    const publishableKey = intent.provider === 'stripe' ? (this.config.STRIPE_PUBLISHABLE_KEY ?? null) : null;
    return { client_secret: intent.client_secret, payment_intent_id: intent.id, status: intent.status, message, existing, provider: intent.provider, publishable_key: publishableKey };
  }

  /** The invoice, when the actor is its buyer: 404 for strangers, 403 for its seller or an admin. */
  private async buyersInvoice(actor: Actor | null, invoiceId: string): Promise<InvoiceRecord> {
    const user = requireActor(actor);
    const invoice = await this.invoices.findById(invoiceId);
    const viewer = invoice ? viewerOf(user, invoice) : null;
    if (!invoice || !viewer) throw notFound('Invoice not found');
    if (viewer !== 'buyer') throw forbidden('Only the buyer can pay this invoice');
    // An unpaid sale that lapsed or was cancelled is over (ADR 0043): no payment of it is started or continued.
    if (invoice.status === 'cancelled') throw conflict('This sale was cancelled, so it can no longer be paid.');
    return invoice;
  }

  private sandbox(): SandboxProvider {
    // The sandbox's own routes do not exist with another provider.
    if (!(this.provider instanceof SandboxProvider)) throw notFound('Not found');
    return this.provider;
  }

  /** The buyer's intent and the sandbox, when the client secret matches (else 404, as for an unknown intent). */
  private async sandboxIntent(actor: Actor | null, id: string, clientSecret: string) {
    const user = requireActor(actor);
    const sandbox = this.sandbox();
    const intent = await this.intents.findById(id);
    const invoice = intent ? await this.invoices.findById(intent.invoice_id) : null;
    const remote = intent ? await sandbox.retrieve(intent.provider_intent_id) : null;
    if (!intent || !invoice || invoice.buyer_id !== user.user_id || !remote || !sandbox.secretMatches(remote, clientSecret)) throw notFound(NOT_FOUND);
    return { sandbox, intent };
  }

  private async confirmation(intent: PaymentIntentRecord, result: SandboxConfirmation): Promise<SandboxConfirmResult> {
    const synced = (await this.events.sync(intent.provider_intent_id)) ?? intent;
    return { payment_intent: statusDto(synced), error: result.error };
  }

  private async adminIntent(id: string): Promise<AdminPaymentIntentRecord> {
    const intent = await this.intents.findWithInvoice(id);
    if (!intent) throw notFound(NOT_FOUND);
    return intent;
  }

  /**
   * Audits an admin's capture or refund the moment the provider has done it, in its own transaction and once per intent
   * and action (ADR 0032): the status the admin saw before the call, and the one the provider's answer leads to.
   */
  private async audited(intent: AdminPaymentIntentRecord, admin: Actor, action: AdminPaymentAction, remote: ProviderIntent): Promise<void> {
    const steps = syncSteps(intent.status, intent.last_error, remote);
    await this.acts.record(admin, intent, action, steps.length > 0 ? steps[steps.length - 1].to : intent.status);
  }

  /** Reconciles the intent after an admin's capture or refund at the provider, and answers it as the admin tab shows it. */
  private async synced(intent: AdminPaymentIntentRecord): Promise<AdminPaymentIntentDto> {
    await this.events.sync(intent.provider_intent_id);
    const fresh = await this.intents.findWithInvoice(intent.id);
    const disputes = await this.transfer.latestFor([intent.invoice_id]);
    return adminDto(fresh ?? intent, new Date(), disputes.get(intent.invoice_id) ?? null);
  }

  /** Runs a provider call; its refusals become 400s with its text (SPEC §8 distinctions). */
  private async call<T>(fn: () => Promise<T>, action: 'capture' | 'refund'): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ProviderError) throw badRequest(error.message);
      this.logger.warn(`Provider ${action} failed: ${(error as Error).message}`);
      throw error;
    }
  }
}

/** The outcome of a test card; an invalid number or a past expiry is a 422 naming the field. Never logs the number. */
export function cardOutcome(card: SandboxCheckoutCard) {
  const outcome = sandboxCardOutcome(card.card_number);
  if (!outcome) throw invalidCard('card_number', 'Your card number is invalid.');
  const now = new Date();
  if (card.exp_year < now.getUTCFullYear() || (card.exp_year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1)) {
    throw invalidCard('exp_year', "Your card's expiration date is in the past.");
  }
  return outcome;
}

function invalidCard(field: string, msg: string): AppError {
  return new AppError('validation_failed', [{ loc: ['body', field], msg, type: 'card_invalid' }]);
}
