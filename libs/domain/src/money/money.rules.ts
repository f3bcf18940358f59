/** Largest dollar amount the platform accepts: well inside exact integer range and a Postgres bigint. */
export const MAX_DOLLARS = 1_000_000_000;

/** True when value is a whole, non-negative dollar amount the platform can hold exactly. */
export function isWholeDollars(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_DOLLARS;
}

/** Formats whole dollars as the product shows them: $25,000 (USD, no decimals). */
export function formatDollars(amount: number): string {
  return `$${Math.trunc(amount).toLocaleString('en-US')}`;
}

/** Converts whole dollars to cents (billing stores cents); refuses anything that is not whole dollars. */
export function dollarsToCents(dollars: number): number {
  if (!isWholeDollars(dollars)) throw new RangeError(`Not a whole dollar amount: ${dollars}`);
  return dollars * 100;
}

/** Converts stored cents to the API's dollars (fees may leave cents: 255 -> 2.55); refuses a fractional cent. */
export function centsToDollars(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  return cents / 100;
}

/** Purchase without escrow is allowed only below this price (D4). */
export const DIRECT_PURCHASE_LIMIT = 5000;

/** True when the buy-now button may be offered for this price (D4). */
export function allowsDirectPurchase(price: number): boolean {
  return price < DIRECT_PURCHASE_LIMIT;
}
