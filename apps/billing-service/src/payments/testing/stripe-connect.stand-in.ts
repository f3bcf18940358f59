import { randomBytes } from 'node:crypto';

/* eslint-disable @typescript-eslint/no-explicit-any -- Stripe's objects are loose JSON here, as on the wire. */
export type Json = Record<string, any>;

/** An answer Stripe gives as an error: its HTTP status and the `error` object. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(body.message);
  }
}

/** A fresh id in Stripe's form (`acct_…`, `tr_…`, `txn_…`). */
export const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's 404 for an id it does not know. */
export const missing = (kind: string, value: string, param = 'id') =>
  new ApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${value}'`, param });

const invalid = (message: string, code?: string, param?: string) =>
  new ApiError(400, { type: 'invalid_request_error', message, ...(code ? { code } : {}), ...(param ? { param } : {}) });

/**
 * Stripe's US card fee on a captured charge: 2.9% + 30¢, the percentage rounded half up, never above the amount (the
 * rule the sandbox's `sandboxCardFee` follows, so both providers leave the same entries in the ledger).
 */
export function standInCardFee(amountCents: number): number {
  return Math.min(amountCents, Math.floor((amountCents * 29 + 500) / 1000) + 30);
}

/** What a new Express account asks for before it can take transfers (as the sandbox lists them). */
const NEW_ACCOUNT_DUE = ['external_account', 'individual.dob.day', 'individual.first_name', 'individual.last_name', 'tos_acceptance.date'];
const VERIFICATION = ['individual.verification.document'];
/** Stripe's Account Links last minutes. */
const LINK_TTL_S = 300;

/** What the seller's hosted onboarding can end in (the sandbox's outcomes). */
export type StandInOnboardingOutcome = 'complete' | 'pending_verification' | 'restricted';

/** The account's fields after each outcome: the transfers capability follows whether Stripe would pay it out. */
const OUTCOMES: Record<StandInOnboardingOutcome, Json> = {
  complete: { payouts_enabled: true, transfers: 'active', currently_due: [], past_due: [], pending_verification: [], disabled_reason: null },
  pending_verification: {
    payouts_enabled: false,
    transfers: 'pending',
    currently_due: [],
    past_due: [],
    pending_verification: VERIFICATION,
    disabled_reason: 'requirements.pending_verification',
  },
  restricted: { payouts_enabled: false, transfers: 'inactive', currently_due: VERIFICATION, past_due: VERIFICATION, pending_verification: [], disabled_reason: 'requirements.past_due' },
};

/** What the Connect side uses of the stand-in: its clock and its event log (`account` names a connected account's event). */
export interface StandInHost {
  now(): number;
  emit(type: string, object: Json, account?: string): void;
}

/** The created range of a list call (`created[gte]=…`), as a test on a Unix second. */
function createdFilter(created: Json | string | undefined): (at: number) => boolean {
  if (created === undefined) return () => true;
  if (typeof created === 'string') return (at) => at === Number(created);
  const bound = (name: string) => (created[name] === undefined ? null : Number(created[name]));
  const [gt, gte, lt, lte] = ['gt', 'gte', 'lt', 'lte'].map(bound);
  return (at) => (gt === null || at > gt) && (gte === null || at >= gte) && (lt === null || at < lt) && (lte === null || at <= lte);
}

/**
 * A page of a list as Stripe answers it: newest first (ties in the order made, latest first), `limit` (default 10,
 * at most 100) after `starting_after`, and `has_more`.
 */
export function listPage(url: string, items: Json[], params: Json, kind: string): Json {
  const limit = params.limit === undefined ? 10 : Number(params.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('Invalid limit: must be an integer between 1 and 100.', 'parameter_invalid_integer', 'limit');
  const inRange = createdFilter(params.created);
  const newestFirst = items
    .map((item, order) => ({ item, order }))
    .filter(({ item }) => inRange(item.created))
    .sort((a, b) => b.item.created - a.item.created || b.order - a.order)
    .map(({ item }) => item);
  let start = 0;
  if (params.starting_after !== undefined) {
    const at = newestFirst.findIndex((item) => item.id === params.starting_after);
    if (at < 0) throw missing(kind, String(params.starting_after), 'starting_after');
    start = at + 1;
  }
  const data = newestFirst.slice(start, start + limit);
  return { object: 'list', url, has_more: start + limit < newestFirst.length, data };
}

/**
 * The stand-in's Connect side (D22): Express accounts with hosted onboarding (its outcome set by `completeOnboarding`),
 * Account Links, transfers from the platform's balance with their reversals, and the balance transactions every
 * capture, refund, transfer and reversal leaves, listed as Stripe lists them.
 */
export class ConnectStandIn {
  private readonly accounts = new Map<string, Json>();
  private readonly transfers = new Map<string, Json>();
  /** Every balance transaction, in the order made. */
  private readonly balance: Json[] = [];

  constructor(
    private readonly host: StandInHost,
    /** The stand-in's charges, by id: a transfer's source_transaction names one. */
    private readonly charges: (chargeId: string) => Json | undefined,
  ) {}

  /** Answers a Connect call, or undefined when the path is not one of Connect's. */
  route(method: string, path: string, params: Json): Json | undefined {
    const expand: string[] = params.expand ?? [];
    if (method === 'POST' && path === '/v1/accounts') return this.createAccount(params);
    if (method === 'POST' && path === '/v1/account_links') return this.createLink(params);
    if (method === 'POST' && path === '/v1/transfers') return this.expandedTransfer(this.createTransfer(params), expand);
    if (method === 'GET' && path === '/v1/transfers') return this.listTransfers(params);
    if (method === 'GET' && path === '/v1/balance_transactions') return listPage(path, this.balance.filter(this.matches(params)), params, 'balance transaction');
    const account = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (account && method === 'GET') return structuredClone(this.account(account[1]));
    const transfer = /^\/v1\/transfers\/([^/]+)(\/reversals)?$/.exec(path);
    if (transfer && method === 'GET' && !transfer[2]) return this.expandedTransfer(this.transfer(transfer[1]), expand);
    if (transfer && method === 'POST' && transfer[2]) return this.reverse(this.transfer(transfer[1]), params.amount === undefined ? null : Number(params.amount));
    return undefined;
  }

  /** A connected account as stored (for assertions). */
  account(accountId: string): Json {
    const account = this.accounts.get(accountId);
    if (!account) throw missing('account', accountId);
    return account;
  }

  /** A transfer as stored (for assertions). */
  transfer(transferId: string): Json {
    const transfer = this.transfers.get(transferId);
    if (!transfer) throw missing('transfer', transferId);
    return transfer;
  }

  /** Every connected account, oldest first (for assertions). */
  allAccounts(): Json[] {
    return structuredClone([...this.accounts.values()]);
  }

  /** Every transfer, oldest first (for assertions). */
  allTransfers(): Json[] {
    return structuredClone([...this.transfers.values()]);
  }

  /** Every balance transaction, oldest first (for assertions). */
  balanceTransactions(): Json[] {
    return structuredClone(this.balance);
  }

  /** What the seller did in Stripe's hosted onboarding; Stripe then sends account.updated to the Connect endpoint. */
  completeOnboarding(accountId: string, outcome: StandInOnboardingOutcome): Json {
    const account = this.account(accountId);
    const set = OUTCOMES[outcome];
    account.details_submitted = true;
    account.payouts_enabled = set.payouts_enabled;
    if ('transfers' in account.capabilities) account.capabilities.transfers = set.transfers;
    Object.assign(account.requirements, {
      currently_due: [...set.currently_due],
      eventually_due: [...set.currently_due],
      past_due: [...set.past_due],
      pending_verification: [...set.pending_verification],
      disabled_reason: set.disabled_reason,
    });
    this.host.emit('account.updated', account, account.id);
    return structuredClone(account);
  }

  /** Reverses what is left of a transfer (as from the Dashboard or the API); answers the reversal. */
  reverseTransfer(transferId: string): Json {
    return this.reverse(this.transfer(transferId), null);
  }

  /** Writes the balance transaction a money movement leaves; answers its id. */
  record(type: 'charge' | 'refund' | 'transfer' | 'transfer_refund', source: string, amount: number, fee: number): string {
    const now = this.host.now();
    const txn = {
      id: id('txn'), object: 'balance_transaction', amount, available_on: type === 'charge' ? now + 2 * 86_400 : now, created: now, currency: 'usd',
      description: null, exchange_rate: null, fee, net: amount - fee, reporting_category: type, source, status: type === 'charge' ? 'pending' : 'available', type,
      fee_details: fee > 0 ? [{ amount: fee, application: null, currency: 'usd', description: 'Stripe processing fees', type: 'stripe_fee' }] : [],
    };
    this.balance.push(txn);
    return txn.id;
  }

  /** A balance transaction as Stripe answers it when expanded; null for none. */
  balanceTransaction(txnId: string | null): Json | null {
    const txn = txnId ? this.balance.find((entry) => entry.id === txnId) : undefined;
    return txn ? structuredClone(txn) : null;
  }

  private matches(params: Json): (txn: Json) => boolean {
    return (txn) => (params.type === undefined || txn.type === params.type) && (params.source === undefined || txn.source === params.source);
  }

  private createAccount(params: Json): Json {
    const accountId = id('acct');
    const requested = Object.entries((params.capabilities ?? {}) as Json).filter(([, value]) => value?.requested === 'true');
    const account = {
      id: accountId, object: 'account', type: params.type ?? null, country: params.country ?? 'US', email: params.email ?? null, default_currency: 'usd',
      created: this.host.now(), business_type: params.business_type ?? null, charges_enabled: false, payouts_enabled: false, details_submitted: false,
      capabilities: Object.fromEntries(requested.map(([name]) => [name, 'inactive'])), metadata: params.metadata ?? {},
      requirements: { alternatives: [], current_deadline: null, currently_due: [...NEW_ACCOUNT_DUE], disabled_reason: 'requirements.past_due', errors: [],
        eventually_due: [...NEW_ACCOUNT_DUE], past_due: [], pending_verification: [] },
      controller: { type: 'application', is_controller: true, requirement_collection: 'stripe', stripe_dashboard: { type: 'express' } },
      tos_acceptance: { date: null }, livemode: false,
    };
    this.accounts.set(accountId, account);
    return structuredClone(account);
  }

  private createLink(params: Json): Json {
    const account = this.accounts.get(String(params.account ?? ''));
    if (!account) throw missing('account', String(params.account ?? ''), 'account');
    if (params.type !== 'account_onboarding' && params.type !== 'account_update') throw invalid(`Invalid type: ${params.type}`, 'parameter_invalid_string', 'type');
    for (const name of ['refresh_url', 'return_url']) if (!params[name]) throw invalid(`Missing required param: ${name}.`, 'parameter_missing', name);
    const now = this.host.now();
    return { object: 'account_link', created: now, expires_at: now + LINK_TTL_S, url: `https://connect.stand-in.test/setup/e/${account.id}/${randomBytes(12).toString('hex')}` };
  }

  /** A transfer from the platform's balance; a destination without an active transfers capability is refused as Stripe refuses it. */
  private createTransfer(params: Json): Json {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) throw invalid('Invalid positive integer', 'parameter_invalid_integer', 'amount');
    const destination = this.accounts.get(String(params.destination ?? ''));
    if (!destination) throw missing('destination', String(params.destination ?? ''), 'destination');
    if (destination.capabilities.transfers !== 'active') {
      throw invalid(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        'insufficient_capabilities_for_transfer',
        'destination',
      );
    }
    const source = params.source_transaction === undefined ? null : String(params.source_transaction);
    if (source !== null) {
      const charge = this.charges(source);
      if (!charge) throw missing('charge', source, 'source_transaction');
      if (amount > charge.amount) throw invalid(`The transfer amount exceeds the amount of source transaction ${source}.`, 'amount_too_large', 'amount');
    }
    const transferId = id('tr');
    const transfer: Json = {
      id: transferId, object: 'transfer', amount, amount_reversed: 0, created: this.host.now(), currency: params.currency, description: params.description ?? null,
      destination: destination.id, destination_payment: id('py'), livemode: false, metadata: params.metadata ?? {}, reversed: false,
      reversals: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/transfers/${transferId}/reversals` },
      source_transaction: source, source_type: 'card', transfer_group: params.transfer_group ?? null,
    };
    transfer.balance_transaction = this.record('transfer', transferId, -amount, 0);
    this.transfers.set(transferId, transfer);
    this.host.emit('transfer.created', transfer);
    return transfer;
  }

  private reverse(transfer: Json, amount: number | null): Json {
    const left = transfer.amount - transfer.amount_reversed;
    const reversing = amount ?? left;
    if (left === 0) throw invalid(`Transfer ${transfer.id} has already been fully reversed.`);
    if (!Number.isInteger(reversing) || reversing < 1 || reversing > left) throw invalid(`You can only reverse up to ${left} of this transfer.`, 'amount_too_large', 'amount');
    const reversalId = id('trr');
    const reversal = {
      id: reversalId, object: 'transfer_reversal', amount: reversing, balance_transaction: this.record('transfer_refund', reversalId, reversing, 0),
      created: this.host.now(), currency: transfer.currency, destination_payment_refund: id('pyr'), metadata: {}, source_refund: null, transfer: transfer.id,
    };
    transfer.reversals.data.unshift(reversal);
    transfer.reversals.total_count += 1;
    transfer.amount_reversed += reversing;
    transfer.reversed = transfer.amount_reversed === transfer.amount;
    // Stripe sends transfer.reversed for every reversal, a partial one too.
    this.host.emit('transfer.reversed', transfer);
    return structuredClone(reversal);
  }

  private listTransfers(params: Json): Json {
    const chosen = [...this.transfers.values()].filter(
      (t) => (params.transfer_group === undefined || t.transfer_group === params.transfer_group) && (params.destination === undefined || t.destination === params.destination),
    );
    const page = listPage('/v1/transfers', chosen, params, 'transfer');
    // A list's expansions name its items' fields under `data.`.
    const expand = ((params.expand ?? []) as string[]).filter((path) => path.startsWith('data.')).map((path) => path.slice('data.'.length));
    return { ...page, data: page.data.map((t: Json) => this.expandedTransfer(t, expand)) };
  }

  /** A transfer with its balance transaction and its reversals' expanded as asked; anything else is refused as Stripe refuses it. */
  private expandedTransfer(transfer: Json, expand: string[]): Json {
    const allowed = ['balance_transaction', 'reversals.data.balance_transaction', 'destination', 'source_transaction'];
    const refused = expand.find((path) => !allowed.includes(path));
    if (refused) throw invalid(`This property cannot be expanded (${refused}).`, undefined, 'expand');
    const copy = structuredClone(transfer);
    if (expand.includes('balance_transaction')) copy.balance_transaction = this.balanceTransaction(copy.balance_transaction);
    if (expand.includes('reversals.data.balance_transaction')) {
      for (const reversal of copy.reversals.data) reversal.balance_transaction = this.balanceTransaction(reversal.balance_transaction);
    }
    if (expand.includes('destination')) copy.destination = structuredClone(this.account(copy.destination));
    if (expand.includes('source_transaction') && copy.source_transaction) copy.source_transaction = structuredClone(this.charges(copy.source_transaction) ?? null);
    return copy;
  }
}
