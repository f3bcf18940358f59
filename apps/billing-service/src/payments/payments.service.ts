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
import { canPay, centsToDollars, dollarsToCents, formatDollars, sandboxCardOutcome, type PaymentIntentStatus } from '@market/domain';
import { AppError, badRequest, conflict, notFound, requireActor, requireAdmin } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { authorizeInvoice, viewerOf } from '../invoices/invoice.policy';
import { PAYMENT_PROVIDER, type PaymentProvider, type ProviderIntent } from './payment-provider';
import { PaymentAdminActs, type AdminPaymentAction } from './payment-admin-acts';
import { syncSteps } from './payment-sync';
import { PayoutsRepository, type PayoutRecord } from '../payouts/payouts.repository';
import { PayoutAccountsRepository } from '../payouts/payout-accounts.repository';
import { PayoutsService } from '../payouts/payouts.service';
import { EscrowService } from './escrow.service';
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
    private readonly payouts: PayoutsRepository,
    private readonly accounts: PayoutAccountsRepository,
    private readonly release: PayoutsService,
    private readonly escrow: EscrowService,
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
    const payouts = await this.payouts.forInvoices(rows.map((row) => row.invoice_id));
    const accounts = await this.accounts.statuses([...payouts.values()].map((p) => p.seller_id));
    return { payment_intents: rows.map((row) => adminDto(row, now, disputes.get(row.invoice_id) ?? null, payouts.get(row.invoice_id) ?? null, accounts)) };
  }

  /**
   * Release Funds (D22): the held funds are captured into escrow if they are not yet, and released to the seller: one
   * transfer of the sale price less the success fee to the seller's payout account, then the invoice is paid. A seller
   * whose account cannot take payouts yet is told, and the payout goes out once it can; a restricted account, a
   * dispute or a provider failure leaves the money held and is answered with why.
   */
  async capture(actor: Actor | null, id: string, request: CapturePaymentRequest): Promise<PaymentActionResponse> {
    const admin = requireAdmin(actor);
    const intent = await this.adminIntent(id);
    if (typeof request.amount_to_capture === 'number' && dollarsToCents(request.amount_to_capture) !== intent.amount_cents) {
      throw badRequest('Partial capture is not supported: capture the full amount');
    }
    const payout = await this.payouts.findByInvoice(intent.invoice_id);
    if (!payout && intent.status !== 'requires_capture' && !(intent.status === 'succeeded' && !intent.refunded_at)) {
      throw badRequest(`This payment cannot be captured because it is not in a capturable state (${intent.status}).`);
    }
    const outcome = await this.release.release(intent.invoice_id, { by: 'admin', admin_id: admin.user_id });
    if (outcome.outcome === 'refused') throw outcome.missing ? notFound(NOT_FOUND) : conflict(outcome.why);
    const fresh = (await this.intents.findWithInvoice(intent.id)) ?? intent;
    await this.audited(intent, admin, 'payment.captured', fresh.status);
    this.logger.log(`Admin ${admin.user_id} released payment ${id}: ${request.reason ?? 'no reason given'}`);
    return { message: releaseMessage(outcome.payout, outcome.sent), payment_intent: await this.synced(intent) };
  }

  /**
   * Refund (D22): an uncaptured hold is canceled, captured funds are refunded from escrow; either way the sale is
   * unwound (ADR 0043). Once a payout was decided the money is the seller's, and the refusal says what to do instead.
   */
  async refund(actor: Actor | null, id: string, request: RefundPaymentRequest): Promise<PaymentActionResponse> {
    const admin = requireAdmin(actor);
    const intent = await this.adminIntent(id);
    if (typeof request.amount_to_refund === 'number' && dollarsToCents(request.amount_to_refund) !== intent.amount_cents) {
      throw badRequest('Partial refunds are not supported: refund the full amount');
    }
    const refunded = await this.escrow.refund(intent, { forDispute: false });
    // The payment's own state, or the provider's refusal of it, is a 400 (SPEC §8); a dispute or a payout is a 409.
    if ('refused' in refunded) throw refunded.because === 'state' || refunded.because === 'provider' ? badRequest(refunded.refused) : conflict(refunded.refused);
    await this.audited(intent, admin, 'payment.refunded', syncedStatus(intent, refunded.remote));
    this.logger.log(`Admin ${admin.user_id} refunded payment ${id}: ${request.reason ?? 'no reason given'}`);
    return { message: 'Payment refunded successfully! The sale is unwound and the listing goes back on sale.', payment_intent: await this.synced(intent) };
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
    const { invoice } = authorizeInvoice(user, await this.invoices.findById(invoiceId), { party: 'buyer', refusal: 'Only the buyer can pay this invoice' });
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
   * Audits an admin's release or refund the moment the money moved, in its own transaction and once per intent and
   * action (ADR 0032): the status the admin saw before, and the one it led to.
   */
  private async audited(intent: AdminPaymentIntentRecord, admin: Actor, action: AdminPaymentAction, after: PaymentIntentStatus): Promise<void> {
    await this.acts.record(admin, intent, action, after);
  }

  /** Reconciles the intent after an admin's capture or refund at the provider, and answers it as the admin tab shows it. */
  private async synced(intent: AdminPaymentIntentRecord): Promise<AdminPaymentIntentDto> {
    // What was done is recorded already; a provider that cannot be read right now only delays the reconciliation.
    await this.events.sync(intent.provider_intent_id).catch((error: unknown) => this.logger.warn(`Payment ${intent.id} not reconciled now: ${(error as Error).message}`));
    const fresh = await this.intents.findWithInvoice(intent.id);
    const disputes = await this.transfer.latestFor([intent.invoice_id]);
    const payouts = await this.payouts.forInvoices([intent.invoice_id]);
    const accounts = await this.accounts.statuses([...payouts.values()].map((p) => p.seller_id));
    return adminDto(fresh ?? intent, new Date(), disputes.get(intent.invoice_id) ?? null, payouts.get(intent.invoice_id) ?? null, accounts);
  }

}

/** The status an intent reaches by the provider's answer (what the admin's act led to). */
function syncedStatus(intent: PaymentIntentRecord, remote: ProviderIntent): PaymentIntentStatus {
  const steps = syncSteps(intent.status, intent.last_error, remote);
  return steps.length > 0 ? steps[steps.length - 1].to : intent.status;
}

/** What Release Funds did, in the admin's words (SPEC §8's success text first). */
function releaseMessage(payout: PayoutRecord, sent: 'paid' | 'waiting' | 'failed'): string {
  const net = centsToDollars(payout.net_cents);
  const amount = Number.isInteger(net) ? formatDollars(net) : `$${net.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (sent === 'paid') return `Payment captured successfully! ${amount} was sent to the seller's payout account.`;
  if (sent === 'waiting') return `Payment captured successfully! The ${amount} payout waits for the seller's payout account and goes out once it can take payouts.`;
  return `Payment captured successfully! The ${amount} payout could not be sent just now; it stays held and is retried automatically.`;
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
