/** How long after a sale is paid out its buyer and seller may review each other (D23). */
export const REVIEW_WINDOW_DAYS = 60;
/** The shortest and longest review text, in characters (code points) after trimming (D23). */
export const REVIEW_TEXT_MIN = 10;
export const REVIEW_TEXT_MAX = 1000;
/** The shortest and longest reason an admin gives for hiding a review (ADR 0083). */
export const REVIEW_HIDE_REASON_MIN = 10;
export const REVIEW_HIDE_REASON_MAX = 500;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Which side of a sale a user is on; null for anyone else. */
export type SaleRole = 'buyer' | 'seller';

/** When the review window of a sale paid out at `completedAt` closes (the end is excluded). */
export function reviewWindowCloses(completedAt: Date): Date {
  return new Date(completedAt.getTime() + REVIEW_WINDOW_DAYS * DAY_MS);
}

/** True while reviews of a sale may still be written: from its payout until the window closes, the close excluded. */
export function isReviewWindowOpen(closesAt: Date, now: Date): boolean {
  return now.getTime() < closesAt.getTime();
}

/** The side of the sale `userId` is on, or null when they were not part of it. */
export function saleRoleOf(sale: { buyer_id: string; seller_id: string }, userId: string): SaleRole | null {
  if (sale.buyer_id === userId) return 'buyer';
  if (sale.seller_id === userId) return 'seller';
  return null;
}

/** Format and control characters (zero-width spaces, bidi overrides), which show nothing; line breaks and tabs are kept. */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;
const KEPT = new Set(['\n', '\t']);

/**
 * How many characters a text shows once trimmed: code points (an emoji is one), less invisible ones, so ten
 * zero-width spaces are not a review of ten characters.
 */
export function reviewTextLength(text: string): number {
  let count = 0;
  for (const char of text.trim()) if (KEPT.has(char) || !char.match(INVISIBLE)) count++;
  return count;
}

/** True when a text holds a bidirectional override or isolate, which can make text display reversed. */
export function hasBidiControl(text: string): boolean {
  return /[\u202A-\u202E\u2066-\u2069]/.test(text);
}

/**
 * A review is shown when no admin hid it and either both parties have written theirs or the window closed (D23):
 * neither side can answer the other's review in kind before writing its own.
 */
export function isReviewVisible(review: { hidden: boolean; bothWritten: boolean; closesAt: Date }, now: Date): boolean {
  if (review.hidden) return false;
  return review.bothWritten || !isReviewWindowOpen(review.closesAt, now);
}

/**
 * The rating a seller card shows (D23): the mean of the visible reviews' stars, rounded half up to one decimal,
 * computed in whole numbers so 4.45 is never 4.4 by a binary fraction; null when there are none.
 */
export function meanRating(starsTotal: number, count: number): number | null {
  if (!Number.isInteger(starsTotal) || !Number.isInteger(count) || count < 0) throw new RangeError('A rating needs whole counts');
  if (count === 0) return null;
  // tenths = round_half_up(10 * total / count) = floor((20 * total + count) / (2 * count))
  return Math.floor((20 * starsTotal + count) / (2 * count)) / 10;
}
