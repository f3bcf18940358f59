import { centsToDollars, formatDollars } from '@market/domain';

/** Money as the product writes it: whole dollars as $4,750; a fee with cents as $237.50. */
export function formatMoney(amount: number): string {
  if (Number.isInteger(amount)) return formatDollars(amount);
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Whole cents as dollars, exactly: 500000 → "$5,000", 123456 → "$1,234.56" (verified revenue is in cents, ADR 0084). */
export function formatCents(cents: number): string {
  return formatMoney(centsToDollars(cents));
}
