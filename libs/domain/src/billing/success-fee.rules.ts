import { isWholeDollars } from '../money/money.rules';

/** A success fee and what the seller is paid, in cents. */
export interface FeeSplit {
  fee_cents: number;
  payout_cents: number;
}

/** The percent in hundredths (basis points), or null unless it is 0 to 100 with at most two decimals. */
function basisPoints(percent: number): number | null {
  if (typeof percent !== 'number' || !Number.isFinite(percent) || percent < 0 || percent > 100) return null;
  const points = Math.round(percent * 100);
  // 4.35 * 100 is 434.99999999999994: allow float noise, refuse a real third decimal.
  return Math.abs(points - percent * 100) < 1e-6 ? points : null;
}

/** True when a success fee percent can be stored and applied exactly: 0 to 100 with at most two decimals. */
export function isValidFeePercent(percent: number): boolean {
  return basisPoints(percent) !== null;
}

/**
 * The success fee on a sale of whole `amountDollars` at `percent` (D10), in exact cents rounded half up, and the payout
 * (amount minus fee). Integer arithmetic throughout: amount × basis points ÷ 100 is the fee in cents.
 */
export function successFee(amountDollars: number, percent: number): FeeSplit {
  if (!isWholeDollars(amountDollars)) throw new RangeError(`Not a whole dollar amount: ${amountDollars}`);
  const points = basisPoints(percent);
  if (points === null) throw new RangeError(`Not a fee percent (0 to 100, two decimals): ${percent}`);
  const feeCents = Math.floor((amountDollars * points + 50) / 100);
  return { fee_cents: feeCents, payout_cents: amountDollars * 100 - feeCents };
}

/**
 * What selling costs, in one sentence for the public pages (ADR 0026): free while the success fee is 0 (the help
 * text of SPEC §1), else the fee in force. Unknown (not loaded, or the fee service is down) claims only what is always
 * true: listing is free.
 */
export function sellingFeeText(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !isValidFeePercent(percent)) return 'Listing is free.';
  if (percent === 0) return 'Listing and selling is currently free.';
  return `Listing is free; when a site sells, a success fee of ${percent}% of the sale price is deducted from the seller's payout.`;
}
