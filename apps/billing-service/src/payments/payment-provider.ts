import type { PayoutAccountFacts } from '@market/domain';
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

/** One entry of the platform's balance at the provider (Stripe's balance transactions): what the ledger reconciles to. */
export interface ProviderBalanceEntry {
  id: string;
  /** Gross, fee and net in cents; net = amount - fee (a refund or a transfer is negative). */
  amount_cents: number;
  fee_cents: number;
  net_cents: number;
  created_at: Date;
}

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
  /** The authorised charge: a payout names it as its source (separate charges and transfers, D22). */
  charge_id: string | null;
  /** The captured charge's entry in the platform's balance (gross, the provider's fee, net); null until captured. */
  capture_balance: ProviderBalanceEntry | null;
  /** The refund's entry in the platform's balance (negative); null unless a captured charge was refunded. */
  refund_balance: ProviderBalanceEntry | null;
}

/** A seller's connected account as the provider knows it (Stripe Connect Express, or the sandbox's): D22. */
export interface ProviderAccount extends PayoutAccountFacts {
  id: string;
  /** Whose account it is (its metadata), so an account.updated can be matched to its seller. */
  user_id: string | null;
}

export interface CreateAccountInput {
  user_id: string;
  /** Retrying with the same key returns the same account (one account per seller). */
  idempotency_key: string;
}

export interface AccountLinkInput {
  account_id: string;
  /** Where the provider sends the seller when the link expired or was used (ask for a new one there). */
  refresh_url: string;
  /** Where the provider sends the seller when onboarding is done (or left). */
  return_url: string;
}

/** A transfer from the platform's balance to a connected account (a payout, D22). */
export interface ProviderTransfer {
  id: string;
  amount_cents: number;
  destination: string;
  transfer_group: string | null;
  created_at: Date;
  reversed: boolean;
  /** The transfer's entry in the platform's balance (negative). */
  balance: ProviderBalanceEntry | null;
  /** The reversal's entry (positive), once reversed. */
  reversal_balance: ProviderBalanceEntry | null;
}

export interface CreateTransferInput {
  amount_cents: number;
  currency: 'usd';
  /** The seller's connected account. */
  destination: string;
  /** The invoice: every movement of one sale's money shares it. */
  transfer_group: string;
  /** The captured charge the money came from (Stripe's source_transaction), when known. */
  source_transaction: string | null;
  /** One key per invoice: a retry never pays twice. */
  idempotency_key: string;
  metadata: Record<string, string>;
}

/** One balance transaction as the provider lists it, for the daily reconciliation (D22). */
export interface ProviderBalanceTransaction extends ProviderBalanceEntry {
  /** charge, refund, transfer, transfer_refund (a reversal), ... as Stripe names them. */
  type: string;
  /** What it moved: the charge, refund or transfer id. */
  source_id: string | null;
}

/** The payment event types handled, named as Stripe's webhooks name them. */
export const PAYMENT_EVENT_TYPES = [
  'payment_intent.amount_capturable_updated',
  'checkout.session.completed',
  'payment_intent.payment_failed',
  'payment_intent.succeeded',
  'payment_intent.canceled',
  'payment_intent.requires_action',
  'charge.refunded',
] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];
/** The payout event types (D22): a connected account changed, a transfer was made or reversed. */
export const PAYOUT_EVENT_TYPES = ['account.updated', 'transfer.created', 'transfer.reversed'] as const;
export type PayoutEventType = (typeof PAYOUT_EVENT_TYPES)[number];
export const PROVIDER_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...PAYOUT_EVENT_TYPES] as const;
export type ProviderEventType = PaymentEventType | PayoutEventType;

/** A provider's notice that an intent changed (a Stripe webhook, or the sandbox's equivalent). */
export interface PaymentEvent {
  id: string;
  type: PaymentEventType;
  intent_id: string;
  at: Date;
}

/** A provider's notice that a seller's connected account changed (D22). */
export interface AccountEvent {
  id: string;
  type: 'account.updated';
  account_id: string;
  at: Date;
}

/** A provider's notice that a transfer to a seller was made or reversed (D22). */
export interface TransferEvent {
  id: string;
  type: 'transfer.created' | 'transfer.reversed';
  transfer_id: string;
  at: Date;
}

/** Any notice the provider sends; each is applied once by its id and reconciled to the provider's current state. */
export type ProviderEvent = PaymentEvent | AccountEvent | TransferEvent;

/** True for a payment intent's notice. */
export function isPaymentEvent(event: ProviderEvent): event is PaymentEvent {
  return (PAYMENT_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** A refusal by the provider, with a code the service maps to SPEC §8 texts. */
export class ProviderError extends Error {
  constructor(
    readonly code: 'already_captured' | 'already_refunded' | 'not_capturable' | 'not_refundable' | 'not_found' | 'account_unable',
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

/** A provider's Connect side (D22): sellers' connected accounts, transfers from the platform's balance, its ledger; like PaymentProvider, never called inside a transaction. */
export interface ConnectProvider {
  /** Makes the seller's connected account (Stripe: an Express account with the transfers capability), once per key. */
  createAccount(input: CreateAccountInput): Promise<ProviderAccount>;
  retrieveAccount(accountId: string): Promise<ProviderAccount | null>;
  /** A single-use link to the provider's hosted onboarding of the account (Stripe: an Account Link). */
  createAccountLink(input: AccountLinkInput): Promise<{ url: string; expires_at: Date }>;
  /**
   * Pays a seller from the platform's balance (separate charges and transfers). The same idempotency key answers the
   * same transfer; a connected account that cannot take it is a ProviderError `account_unable`.
   */
  createTransfer(input: CreateTransferInput): Promise<ProviderTransfer>;
  /** The transfer already made for a group (an invoice), if any: a retry after the idempotency key expired pays nothing twice. */
  findTransfer(transferGroup: string): Promise<ProviderTransfer | null>;
  retrieveTransfer(transferId: string): Promise<ProviderTransfer | null>;
  /** The platform's balance transactions created in [from, to), a page at a time (the daily reconciliation). */
  balanceTransactions(from: Date, to: Date): AsyncIterable<ProviderBalanceTransaction[]>;
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

  /** The seller side (D22): connected accounts, transfers to them and the platform's balance. */
  readonly connect: ConnectProvider;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
