import type { ListingDto, PlaceBid, PlaceBidResponse } from '@market/contracts';
import { formatDollars, maxAmountRefusal } from '@market/domain';
import { BID_SUCCESS, isNumberText, type BidCheck } from './bid-form';

/** The rule of proxy bidding in one sentence, shown under "Bid up to" (ADR 0055). */
export const MAX_BID_RULE = 'We bid for you only as much as needed to keep you in the lead, up to this amount; nobody else sees it.';

/** Proxy bidding runs on automatic auctions only (ADR 0055): a manual auction's seller picks, a fixed price takes offers. */
export function offersMaxBid(listing: Pick<ListingDto, 'listing_type' | 'auction_type'>): boolean {
  return listing.listing_type === 'auction' && listing.auction_type === 'auto';
}

/** The outcome of checking a typed "Bid up to": the maximum to send (undefined: none typed), or the field's message. */
export type MaxBidCheck = { ok: true; max_amount: number | undefined } | { ok: false; error: string };

/**
 * Checks a typed "Bid up to" with the API's own rule (the domain's maxAmountRefusal, which PlaceBidSchema says in the
 * same words), so the rule and its messages are the ones the API answers: empty means no maximum; otherwise whole dollars, at least the bid. `bid` is the checked bid; while
 * the bid itself is invalid pass amount 1, so only the field's own rules apply and the bid's message stands alone.
 */
export function checkMaxAmount(typed: string, bid: Pick<PlaceBid, 'listing_id' | 'amount'>): MaxBidCheck {
  const text = typed.trim();
  if (!text) return { ok: true, max_amount: undefined };
  // Text that is not a number is checked as NaN, which the rule refuses with its own "must be a number".
  const max_amount = isNumberText(text) ? Number(text) : Number.NaN;
  const refusal = maxAmountRefusal(bid.amount, max_amount);
  return refusal === null ? { ok: true, max_amount } : { ok: false, error: refusal };
}

/**
 * The body of POST /api/bids: max_amount only when one was typed. The Idempotency-Key is chosen by this body
 * (retryableKeyHeaders), so another maximum is another request with its own key (ADR 0047).
 */
export function placeBidBody(listingId: string, amount: number, maxAmount?: number): PlaceBid {
  return maxAmount === undefined ? { listing_id: listingId, amount } : { listing_id: listingId, amount, max_amount: maxAmount };
}

/** A submitted bid form: the body to send, or the messages to show under each field (null: that field is fine). */
export interface ReadAmountForm {
  body: PlaceBid | null;
  amountError: string | null;
  maxError: string | null;
}

/**
 * Reads a submitted bid or offer form: the checked amount and, when the form has "Bid up to" (typedMax not null), the
 * maximum. Both fields are judged at once so each shows its own message; nothing is sent while either is wrong.
 */
export function readAmountForm(listingId: string, amount: BidCheck, typedMax: string | null): ReadAmountForm {
  const max = typedMax === null ? null : checkMaxAmount(typedMax, { listing_id: listingId, amount: amount.ok ? amount.amount : 1 });
  const amountError = amount.ok ? null : amount.error;
  const maxError = max !== null && !max.ok ? max.error : null;
  if (!amount.ok || maxError !== null) return { body: null, amountError, maxError };
  return { body: placeBidBody(listingId, amount.amount, max?.ok ? max.max_amount : undefined), amountError, maxError };
}

/** What the bid form says after an accepted bid: a tone, and whether it stays until the next bid instead of fading. */
export interface BidOutcome {
  text: string;
  tone: 'success' | 'warning';
  lasting: boolean;
}

/**
 * Tells a bidder where an accepted bid left them (ADR 0055): outbid at once by an earlier maximum, with the new price;
 * leading under a maximum the system now bids from (their own, which only they see); or plainly placed (SPEC §8).
 */
export function bidOutcome(answer: Pick<PlaceBidResponse, 'leading' | 'max_amount' | 'current_bid'>): BidOutcome {
  if (!answer.leading) {
    const price = answer.current_bid === null ? '' : ` The current bid is now ${formatDollars(answer.current_bid)}.`;
    return { text: `Outbid at once by another bidder's earlier maximum.${price}`, tone: 'warning', lasting: true };
  }
  if (answer.max_amount !== null) {
    return { text: `✅ You lead; we'll bid for you up to ${formatDollars(answer.max_amount)}.`, tone: 'success', lasting: true };
  }
  return { text: BID_SUCCESS, tone: 'success', lasting: false };
}
