import { MAX_DOLLARS, formatDollars } from '@market/domain';

/** The outcome of checking a typed bid: the whole-dollar amount to send, or the message to show under the input. */
export type BidCheck = { ok: true; amount: number } | { ok: false; error: string };

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Checks a typed bid as SPEC §5 and D6 ask: required, numeric, whole dollars, at least the minimum next bid. */
export function checkBidAmount(typed: string, minimum: number): BidCheck {
  const text = typed.trim();
  if (!text) return { ok: false, error: 'Please enter your bid amount' };
  if (!NUMBER_TEXT.test(text)) return { ok: false, error: 'Bid amount must be a number' };
  const amount = Number(text);
  if (!Number.isFinite(amount)) return { ok: false, error: 'Bid amount must be a number' };
  if (!Number.isInteger(amount)) return { ok: false, error: 'Bid amount must be whole dollars' };
  if (amount < minimum) return { ok: false, error: `Bid must be at least ${formatDollars(minimum)}` };
  if (amount > MAX_DOLLARS) return { ok: false, error: 'Bid amount is too large' };
  return { ok: true, amount };
}

/** The bid success text of SPEC §8. */
export const BID_SUCCESS = '✅ Bid placed successfully!';

/** Bid messages are green when they contain ✅ and red otherwise (SPEC §8). */
export function isSuccessMessage(text: string): boolean {
  return text.includes('✅');
}

/** A bid's time as the viewer's locale writes a date and a time; the raw text when it is not a date. */
export function formatBidTime(createdAt: string, locale?: string): string {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return createdAt;
  return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
