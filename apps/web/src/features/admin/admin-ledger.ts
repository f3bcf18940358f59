import { UuidSchema, type LedgerDifferenceDto, type LedgerTransactionDto, type ReconciliationResultDto } from '@market/contracts';
import { formatMoney } from './admin-billing-figures';

/** What each kind of ledger transaction was, in the admin's words (the domain names them, it does not label them). */
const KIND_LABELS: Record<LedgerTransactionDto['kind'], string> = {
  authorization: 'Card authorised',
  capture: 'Captured into escrow',
  hold_released: 'Card hold released',
  refund_owed: 'Refund owed to the buyer',
  refund_paid: 'Refund paid',
  release: 'Released to the seller',
  payout: 'Payout sent',
  payout_reversed: 'Payout reversed',
};

/** A ledger transaction's kind in words; one this build does not know shows as sent. */
export function ledgerKindLabel(kind: string): string {
  return KIND_LABELS[kind as LedgerTransactionDto['kind']] ?? kind.replace(/_/g, ' ');
}

const DIFFERENCE_LABELS: Record<LedgerDifferenceDto['kind'], string> = {
  missing_in_ledger: 'Missing in the ledger',
  missing_at_provider: 'Missing at the provider',
  amount_differs: 'Amounts differ',
};

/** What a reconciliation difference is, in words. */
export function differenceKindLabel(kind: string): string {
  return DIFFERENCE_LABELS[kind as LedgerDifferenceDto['kind']] ?? kind.replace(/_/g, ' ');
}

/** A ledger amount in dollars, signed (credits read negative), cents only when there are some; a dash for none. */
export function ledgerMoney(amount: number | null): string {
  return amount === null ? '\u2014' : formatMoney(amount);
}

/** The unreconciled count as the tab's headline says it. */
export function unreconciledText(count: number): string {
  return count === 0 ? 'Nothing unreconciled' : `${count} unreconciled`;
}

/** The invoice-trail lookup's field: an invoice id (a UUID), trimmed, or why it is not one. */
export function parseInvoiceId(text: string): { ok: true; id: string } | { ok: false; error: string } {
  const value = text.trim();
  if (!value) return { ok: false, error: 'Enter an invoice id.' };
  return UuidSchema.safeParse(value.toLowerCase()).success
    ? { ok: true, id: value.toLowerCase() }
    : { ok: false, error: 'An invoice id looks like 6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab (open it from a row of the Payments tab).' };
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** One sentence on what a reconciliation run compared and found. */
export function reconcileSummary(result: ReconciliationResultDto): string {
  const compared = `Reconciled ${plural(result.days, 'day')}: ${plural(result.provider_transactions, 'provider transaction')} against ${plural(result.ledger_transactions, 'ledger transaction')}.`;
  const found = result.differences === 0 ? 'No new differences.' : `${plural(result.differences, 'difference')} found.`;
  return `${compared} ${found} ${unreconciledText(result.unreconciled)}.`;
}

/** A party's id shortened for a narrow table; the whole id stays in the title. */
export function shortId(id: string | null): string {
  if (!id) return '\u2014';
  return id.length > 8 ? `${id.slice(0, 8)}\u2026` : id;
}
