import { formatDollars } from '../money/money.rules';

/** The fixed part of the large-bid threshold (ADR 0041): $50,000 above the minimum next bid. */
export const LARGE_BID_MARGIN = 50_000;
/** The multiple of the minimum next bid above which a bid is large (ADR 0041). */
export const LARGE_BID_MULTIPLE = 10;

/**
 * The highest bid anyone may place without a verified payment method on file (ADR 0041): the greater of 10 times the
 * minimum next bid and the minimum plus $50,000. Whole dollars in, whole dollars out (bids are whole dollars, D6).
 */
export function largeBidThreshold(minimumNextBid: number): number {
  if (!Number.isSafeInteger(minimumNextBid) || minimumNextBid < 0) throw new RangeError('The minimum next bid must be whole dollars from 0');
  return Math.max(LARGE_BID_MULTIPLE * minimumNextBid, minimumNextBid + LARGE_BID_MARGIN);
}

/** True when a bid of `amount` needs a verified payment method: strictly above the threshold (ADR 0041). */
export function needsPaymentMethod(amount: number, minimumNextBid: number): boolean {
  return amount > largeBidThreshold(minimumNextBid);
}

/** What a bidder is told when a large bid has no card behind it: where to add one (ADR 0041). */
export function largeBidRefusal(minimumNextBid: number): string {
  return `Bids above ${formatDollars(largeBidThreshold(minimumNextBid))} need a verified payment method. Add a card under Payment method in your profile, then bid again.`;
}
