import type { PlaceBid, PlaceBidResponse } from '@market/contracts';
import { bidAmountRefusal, formatDollars, maximumRaiseRefusal } from '@market/domain';
import { isNumberText } from './bid-form';
import type { BidOutcome } from './max-bid';

/** The outcome of checking a typed new maximum: the body to send, or the message under the field. */
export type RaiseCheck = { ok: true; body: PlaceBid } | { ok: false; error: string };

/**
 * Checks the leader's new maximum (ADR 0055, ADR 0060) with the API's own rules and words: the request's amount rule
 * (the domain's `bidAmountRefusal`, as PlaceBidSchema says it: a whole number of dollars, not too large) and
 * `maximumRaiseRefusal` (above the maximum held). The amount sent is the current price, below the minimum next bid, which the API reads as "raise my maximum
 * only": nothing is bid and the price stays unless the higher maximum must move it.
 */
export function checkRaiseMaximum(typed: string, listingId: string, currentBid: number, currentMax: number): RaiseCheck {
  const text = typed.trim();
  if (!text) return { ok: false, error: 'Please enter your new maximum' };
  const max_amount = isNumberText(text) ? Number(text) : Number.NaN;
  const refusal = bidAmountRefusal('max_amount', max_amount) ?? maximumRaiseRefusal(currentMax, max_amount);
  return refusal ? { ok: false, error: refusal } : { ok: true, body: { listing_id: listingId, amount: currentBid, max_amount } };
}

/** What the raise form says once the API took the new maximum: the maximum now held (only the bidder sees it). */
export function raiseOutcome(answer: Pick<PlaceBidResponse, 'leading' | 'max_amount' | 'current_bid'>): BidOutcome {
  if (!answer.leading || answer.max_amount === null) {
    const price = answer.current_bid === null ? '' : ` The current bid is ${formatDollars(answer.current_bid)}.`;
    return { text: `Your maximum did not keep you in the lead.${price}`, tone: 'warning', lasting: true };
  }
  return { text: `✅ Your maximum bid was raised to ${formatDollars(answer.max_amount)}.`, tone: 'success', lasting: true };
}
