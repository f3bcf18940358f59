import Stripe from 'stripe';
import {
  ProviderError,
  type AccountLinkInput,
  type ConnectProvider,
  type CreateAccountInput,
  type CreateTransferInput,
  type ProviderAccount,
  type ProviderBalanceEntry,
  type ProviderBalanceTransaction,
  type ProviderTransfer,
} from './payment-provider';

/** What a transfer is read with: its balance entry and its reversals' (the reversals come with it, the 10 latest). */
const TRANSFER_EXPAND = ['balance_transaction', 'reversals.data.balance_transaction'];
/** Stripe's largest page. */
const PAGE = 100;
/** Stripe's refusals of a transfer because the destination cannot receive one (not onboarded, restricted, rejected). */
const ACCOUNT_UNABLE = new Set(['insufficient_capabilities_for_transfer', 'transfers_not_allowed']);

const at = (value: number): Date => new Date(value * 1000);
/** A Date as Stripe's whole seconds; both ends of a window round down, so consecutive windows neither overlap nor leave a gap. */
const unix = (date: Date): number => Math.floor(date.getTime() / 1000);
const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

/** The error Stripe answered, or null for anything else (a network failure, a bug). */
function stripeError(error: unknown): Stripe.errors.StripeError | null {
  return error instanceof Stripe.errors.StripeError ? error : null;
}

/** An expanded balance transaction as the port's balance entry; null when there is none or only its id came. */
export function balanceEntryOf(txn: string | Stripe.BalanceTransaction | null | undefined): ProviderBalanceEntry | null {
  if (!txn || typeof txn === 'string') return null;
  return { id: txn.id, amount_cents: txn.amount, fee_cents: txn.fee, net_cents: txn.net, created_at: at(txn.created) };
}

/** A connected account as the port's ProviderAccount: the facts its payout status is judged from (D22). */
export function providerAccountOf(account: Stripe.Account): ProviderAccount {
  const requirements = account.requirements;
  return {
    id: account.id,
    user_id: account.metadata?.user_id ?? null,
    details_submitted: account.details_submitted ?? false,
    payouts_enabled: account.payouts_enabled ?? false,
    currently_due: requirements?.currently_due ?? [],
    past_due: requirements?.past_due ?? [],
    pending_verification: requirements?.pending_verification ?? [],
    disabled_reason: requirements?.disabled_reason ?? null,
  };
}

/** A transfer (read with TRANSFER_EXPAND) as the port's ProviderTransfer; its reversal entry is the latest reversal's. */
export function providerTransferOf(transfer: Stripe.Transfer): ProviderTransfer {
  const reversals = [...(transfer.reversals?.data ?? [])].sort((a, b) => b.created - a.created);
  return {
    id: transfer.id,
    amount_cents: transfer.amount,
    destination: idOf(transfer.destination) ?? '',
    transfer_group: transfer.transfer_group,
    created_at: at(transfer.created),
    reversed: transfer.reversed,
    balance: balanceEntryOf(transfer.balance_transaction),
    reversal_balance: reversals.length > 0 ? balanceEntryOf(reversals[0].balance_transaction) : null,
  };
}

/** One balance transaction as the daily reconciliation reads it: its type and what it moved (a charge, refund, transfer or reversal). */
export function providerBalanceTransactionOf(txn: Stripe.BalanceTransaction): ProviderBalanceTransaction {
  return { ...(balanceEntryOf(txn) as ProviderBalanceEntry), type: txn.type, source_id: idOf(txn.source) };
}

/**
 * The Stripe provider's Connect side (D22, separate charges and transfers): sellers' Express accounts onboarded through
 * Account Links, transfers from the platform's balance (one transfer group per invoice, the captured charge as
 * source_transaction, one idempotency key per invoice), and the balance transactions the ledger is reconciled to.
 */
export class StripeConnect implements ConnectProvider {
  constructor(private readonly stripe: Stripe) {}

  /** An Express account that asks only for transfers (the platform takes the card payments); once per key. */
  async createAccount(input: CreateAccountInput): Promise<ProviderAccount> {
    const account = await this.stripe.accounts.create(
      { type: 'express', country: 'US', capabilities: { transfers: { requested: true } }, metadata: { user_id: input.user_id } },
      { idempotencyKey: input.idempotency_key },
    );
    return providerAccountOf(account);
  }

  /** The account as Stripe knows it now; null when Stripe knows no such account. */
  async retrieveAccount(accountId: string): Promise<ProviderAccount | null> {
    // Without an id the SDK would read the platform's own account.
    if (!accountId) return null;
    try {
      return providerAccountOf(await this.stripe.accounts.retrieve(accountId));
    } catch (error) {
      if (stripeError(error)?.code === 'resource_missing') return null;
      throw error;
    }
  }

  /** A single-use link to Stripe's hosted onboarding; each call makes a new one (an old one may have expired or been used). */
  async createAccountLink(input: AccountLinkInput): Promise<{ url: string; expires_at: Date }> {
    const link = await this.stripe.accountLinks.create({
      account: input.account_id,
      type: 'account_onboarding',
      refresh_url: input.refresh_url,
      return_url: input.return_url,
    });
    return { url: link.url, expires_at: at(link.expires_at) };
  }

  /** Pays the seller; Stripe replays the first answer under the same key, so a retry never pays twice. */
  async createTransfer(input: CreateTransferInput): Promise<ProviderTransfer> {
    try {
      const transfer = await this.stripe.transfers.create(
        {
          amount: input.amount_cents,
          currency: input.currency,
          destination: input.destination,
          transfer_group: input.transfer_group,
          // Tied to the charge, the transfer waits for its funds to settle rather than failing on an empty balance.
          ...(input.source_transaction ? { source_transaction: input.source_transaction } : {}),
          metadata: input.metadata,
          expand: TRANSFER_EXPAND,
        },
        { idempotencyKey: input.idempotency_key },
      );
      return providerTransferOf(transfer);
    } catch (error) {
      const refusal = stripeError(error);
      if (refusal?.code && ACCOUNT_UNABLE.has(refusal.code)) throw new ProviderError('account_unable', 'The destination account cannot receive transfers yet.');
      if (refusal?.code === 'resource_missing' && refusal.param === 'destination') throw new ProviderError('not_found', `No such destination account: ${input.destination}`);
      throw error;
    }
  }

  /** The first transfer made for the group (Stripe lists newest first: the last of the page), or null. */
  async findTransfer(transferGroup: string): Promise<ProviderTransfer | null> {
    const page = await this.stripe.transfers.list({ transfer_group: transferGroup, limit: PAGE });
    const first = page.data.at(-1);
    // Read again by id, its balance entries expanded as retrieveTransfer expands them.
    return first ? this.retrieveTransfer(first.id) : null;
  }

  /** The transfer with its balance entry and its reversal's; null when Stripe knows no such transfer. */
  async retrieveTransfer(transferId: string): Promise<ProviderTransfer | null> {
    try {
      return providerTransferOf(await this.stripe.transfers.retrieve(transferId, { expand: TRANSFER_EXPAND }));
    } catch (error) {
      if (stripeError(error)?.code === 'resource_missing') return null;
      throw error;
    }
  }

  /** The platform's balance transactions created in [from, to), a page of up to 100 at a time, newest first as Stripe lists them. */
  async *balanceTransactions(from: Date, to: Date): AsyncIterable<ProviderBalanceTransaction[]> {
    let after: string | null = null;
    for (;;) {
      const page: Stripe.ApiList<Stripe.BalanceTransaction> = await this.stripe.balanceTransactions.list({
        created: { gte: unix(from), lt: unix(to) },
        limit: PAGE,
        ...(after ? { starting_after: after } : {}),
      });
      if (page.data.length > 0) yield page.data.map(providerBalanceTransactionOf);
      if (!page.has_more || page.data.length === 0) return;
      after = page.data[page.data.length - 1].id;
    }
  }
}
