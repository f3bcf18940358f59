/**
 * The billing ledger (D22, ADR 0063): double entry in whole cents, debits positive and credits negative, so every
 * transaction sums to zero. Assets: `card_holds` (authorised on buyers' cards, not captured) and `platform_balance` (the
 * platform's money at the provider, reconciled against its balance transactions). Liabilities: `escrow_held` (held for
 * an invoice until it is released or refunded), `seller_payable` (released to a seller, per seller, until the transfer)
 * and `refunds` (owed back to a buyer until the provider has paid it). Revenue `platform_fees` (success fees, D10) and
 * expense `provider_fees` (what the provider charged for a capture).
 */
export const LEDGER_ACCOUNTS = ['card_holds', 'platform_balance', 'escrow_held', 'seller_payable', 'refunds', 'platform_fees', 'provider_fees'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** What each account reads as on the admin Ledger tab. */
export const LEDGER_ACCOUNT_LABELS: Record<LedgerAccount, string> = {
  card_holds: 'Held on buyers\u2019 cards',
  platform_balance: 'Platform balance at the provider',
  escrow_held: 'Held in escrow',
  seller_payable: 'Payable to sellers',
  refunds: 'Refunds owed to buyers',
  platform_fees: 'Success fees earned',
  provider_fees: 'Provider fees paid',
};

/** Every kind of money movement the ledger records, one balanced transaction each. */
export const LEDGER_KINDS = ['authorization', 'capture', 'hold_released', 'refund_owed', 'refund_paid', 'release', 'payout', 'payout_reversed'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** One line of a transaction: an account (a seller's payable names its seller) and a signed amount in cents. */
export interface LedgerEntry {
  account: LedgerAccount;
  party_id: string | null;
  amount_cents: number;
}

/** True when the entries are whole, non-zero cents that sum to zero, with a party exactly on sellers' payables. */
export function isBalanced(entries: readonly LedgerEntry[]): boolean {
  if (entries.length < 2) return false;
  let sum = 0;
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.amount_cents) || entry.amount_cents === 0) return false;
    if ((entry.account === 'seller_payable') !== (entry.party_id !== null)) return false;
    sum += entry.amount_cents;
  }
  return sum === 0;
}

const cents = (label: string, value: number, allowZero = false) => {
  if (!Number.isSafeInteger(value) || value < 0 || (!allowZero && value === 0)) throw new RangeError(`Not a ledger amount (${label}): ${value}`);
  return value;
};
const entry = (account: LedgerAccount, amount_cents: number, party_id: string | null = null): LedgerEntry => ({ account, party_id, amount_cents });
/** Drops zero lines (a fee of 0) so every stored line moves money. */
const moving = (entries: LedgerEntry[]) => entries.filter((e) => e.amount_cents !== 0);

/** A card hold made: the buyer's money is held for the invoice. */
export function authorizationEntries(amountCents: number): LedgerEntry[] {
  const x = cents('amount', amountCents);
  return [entry('card_holds', x), entry('escrow_held', -x)];
}

/** The hold captured into the platform's balance, less the provider's fee (the platform bears it, ADR 0063). */
export function captureEntries(amountCents: number, providerFeeCents: number): LedgerEntry[] {
  const x = cents('amount', amountCents);
  const fee = cents('provider fee', providerFeeCents, true);
  if (fee > x) throw new RangeError(`A provider fee above the amount: ${fee} > ${x}`);
  return moving([entry('card_holds', -x), entry('platform_balance', x - fee), entry('provider_fees', fee)]);
}

/** An uncaptured hold canceled or lapsed: nothing was taken, the escrow is released back to the buyer's card. */
export function holdReleasedEntries(amountCents: number): LedgerEntry[] {
  const x = cents('amount', amountCents);
  return [entry('escrow_held', x), entry('card_holds', -x)];
}

/** Captured funds refunded: the escrow becomes a refund owed to the buyer. */
export function refundOwedEntries(amountCents: number): LedgerEntry[] {
  const x = cents('amount', amountCents);
  return [entry('escrow_held', x), entry('refunds', -x)];
}

/** The provider paid the refund out of the platform's balance. */
export function refundPaidEntries(amountCents: number): LedgerEntry[] {
  const x = cents('amount', amountCents);
  return [entry('refunds', x), entry('platform_balance', -x)];
}

/** The funds released: the sale price less the success fee becomes the seller's, the fee the platform's (D10, D22). */
export function releaseEntries(sellerId: string, amountCents: number, feeCents: number): LedgerEntry[] {
  const x = cents('amount', amountCents);
  const fee = cents('success fee', feeCents, true);
  if (fee > x) throw new RangeError(`A success fee above the amount: ${fee} > ${x}`);
  const net = x - fee;
  return moving([entry('escrow_held', x), entry('seller_payable', -net, sellerId), entry('platform_fees', -fee)]);
}

/** The transfer to the seller's payout account left the platform's balance. */
export function payoutEntries(sellerId: string, netCents: number): LedgerEntry[] {
  const n = cents('payout', netCents);
  return [entry('seller_payable', n, sellerId), entry('platform_balance', -n)];
}

/** A transfer the provider reversed: the money is back in the platform's balance and owed to the seller again. */
export function payoutReversedEntries(sellerId: string, netCents: number): LedgerEntry[] {
  const n = cents('payout', netCents);
  return [entry('platform_balance', n), entry('seller_payable', -n, sellerId)];
}

/** Each account's balance (debits positive) over transactions; sellers' payables summed into one line. */
export function ledgerBalances(transactions: readonly (readonly LedgerEntry[])[]): Record<LedgerAccount, number> {
  const balances = Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, 0])) as Record<LedgerAccount, number>;
  for (const entries of transactions) for (const e of entries) balances[e.account] += e.amount_cents;
  return balances;
}
