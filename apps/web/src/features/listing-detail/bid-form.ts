import { useInBrowser } from '../../lib/use-in-browser';
import { bidAmountRefusal, formatDollars } from '@market/domain';

/** The outcome of checking a typed bid: the whole-dollar amount to send, or the message to show under the input. */
export type BidCheck = { ok: true; amount: number } | { ok: false; error: string };

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** True when trimmed text reads as one plain number (no thousands separators, currency signs or hex). */
export function isNumberText(text: string): boolean {
  return NUMBER_TEXT.test(text);
}

/** Reads typed text as whole dollars; the messages name what is typed ('Bid' or 'Offer'). */
function readWholeDollars(typed: string, noun: 'Bid' | 'Offer'): BidCheck {
  const text = typed.trim();
  if (!text) return { ok: false, error: `Please enter your ${noun.toLowerCase()} amount` };
  if (!isNumberText(text)) return { ok: false, error: `${noun} amount must be a number` };
  const amount = Number(text);
  if (!Number.isFinite(amount)) return { ok: false, error: `${noun} amount must be a number` };
  if (!Number.isInteger(amount)) return { ok: false, error: `${noun} amount must be whole dollars` };
  return { ok: true, amount };
}

/**
 * Checks a typed bid as SPEC §5 and D6 ask: required, then the API's own amount rule (the domain's bidAmountRefusal,
 * which PlaceBidSchema says in the same words: a number, whole dollars, not too large), then at least the listing's
 * minimum next bid, which only the page knows. The page needs no schema library for it.
 */
export function checkBidAmount(typed: string, minimum: number): BidCheck {
  const text = typed.trim();
  if (!text) return { ok: false, error: 'Please enter your bid amount' };
  // Text that is not a plain number is checked as NaN, which the rule refuses with its own "must be a number".
  const amount = isNumberText(text) ? Number(text) : Number.NaN;
  // Under the minimum is said with the minimum, as the server says it, before the schema's own floor of $1.
  if (Number.isInteger(amount) && amount < minimum) return { ok: false, error: `Bid must be at least ${formatDollars(minimum)}` };
  const refusal = bidAmountRefusal('amount', amount);
  return refusal === null ? { ok: true, amount } : { ok: false, error: refusal };
}

/**
 * Checks a typed offer on a fixed-price listing as the server does (D5): whole dollars, at least $1, and never above
 * the asking price (at that price the buyer buys instead).
 */
export function checkOfferAmount(typed: string, asking: number): BidCheck {
  const read = readWholeDollars(typed, 'Offer');
  if (!read.ok) return read;
  if (read.amount < 1) return { ok: false, error: 'Offer must be at least $1' };
  if (read.amount > asking) return { ok: false, error: `Offer cannot be above the asking price of ${formatDollars(asking)}` };
  return read;
}

/** The bid success text of SPEC §8. */
export const BID_SUCCESS = '✅ Bid placed successfully!';

/** The offer success text: green, like every message with ✅ (SPEC §8). */
export const OFFER_SUCCESS = '✅ Offer sent to the seller';

/** A bid's time as the viewer's locale writes a date and a time; the raw text when it is not a date. */
export function formatBidTime(createdAt: string, locale?: string, timeZone?: string): string {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return createdAt;
  return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });
}

/**
 * Writes times in the viewer's own zone and locale once in the browser; on the server and while its HTML is
 * hydrated, in UTC and US English, said so, the same on both sides (the server knows no visitor's zone, ADR 0072).
 */
export function useBidTime(): (iso: string) => string {
  const inBrowser = useInBrowser();
  return inBrowser ? (iso) => formatBidTime(iso) : (iso) => `${formatBidTime(iso, 'en-US', 'UTC')} UTC`;
}
