import { formatDollars, isWholeDollars } from '../money/money.rules';
import { acceptsBids, type ListingStatus } from '../listings/listing-status.rules';
import { minimumNextBid } from './increment.rules';

/** What the bidding service knows of one listing's sale (it owns this state; D6-D9). */
export interface AuctionState {
  seller_id: string;
  listing_type: 'auction' | 'fixed';
  auction_type: 'auto' | 'manual';
  status: ListingStatus;
  starting_price: number;
  reserve_price: number | null;
  current_bid: number | null;
  bid_count: number;
  expires_at: Date | null;
}

export interface BidAttempt {
  bidder_id: string;
  amount: number;
}

export type BidDecision =
  | { accepted: true; current_bid: number; bid_count: number; expires_at: Date | null; extended: boolean }
  | { accepted: false; reason: string };

/** Soft close default (D9): a leading bid in the final 10 minutes moves the end to 10 minutes after it. */
export const DEFAULT_ANTI_SNIPING_MINUTES = 10;

/** Why an amount is not a bid at all, or null when it is a whole, positive number of dollars. */
export function invalidAmount(amount: number): string | null {
  return isWholeDollars(amount) && amount >= 1 ? null : 'Bid amount must be a whole number of dollars, at least $1';
}

/**
 * Decides one bid on an auction (D6, D9): never the seller's own, only while the listing takes bids, at least the
 * starting price first and then the current bid plus the increment. A new leading bid inside the final
 * `antiSnipingMinutes` moves the end to that many minutes after it (0 turns soft close off); the end never moves earlier.
 */
export function decideBid(auction: AuctionState, bid: BidAttempt, now: Date, antiSnipingMinutes = DEFAULT_ANTI_SNIPING_MINUTES): BidDecision {
  const badAmount = invalidAmount(bid.amount);
  if (badAmount) return { accepted: false, reason: badAmount };
  const refusal = auctionRefusal(auction, bid.bidder_id, now);
  if (refusal) return { accepted: false, reason: refusal };
  const minimum = minimumNextBid(auction.starting_price, auction.current_bid);
  if (bid.amount < minimum) return { accepted: false, reason: `Bid must be at least ${formatDollars(minimum)}` };
  return { accepted: true, current_bid: bid.amount, bid_count: auction.bid_count + 1, ...softClose(auction.expires_at, now, antiSnipingMinutes) };
}

/** Why this bidder may not bid on this sale at all, whatever the amount (D6, D16), or null when they may. */
export function auctionRefusal(auction: AuctionState, bidderId: string, now: Date): string | null {
  if (bidderId === auction.seller_id) return 'You cannot bid on your own listing';
  if (auction.listing_type !== 'auction') return 'This listing is sold at a fixed price: make an offer instead';
  if (!acceptsBids(auction.status, auction.expires_at, now)) return 'This auction is not accepting bids';
  return null;
}

/**
 * The end after a bid that moved the price at `now` (D9): inside the final `antiSnipingMinutes` it moves to that many
 * minutes after the bid (0 turns soft close off); the end never moves earlier.
 */
export function softClose(expiresAt: Date | null, now: Date, antiSnipingMinutes: number): { expires_at: Date | null; extended: boolean } {
  const softEnd = new Date(now.getTime() + antiSnipingMinutes * 60_000);
  const extended = antiSnipingMinutes > 0 && expiresAt !== null && expiresAt.getTime() < softEnd.getTime();
  return { expires_at: extended ? softEnd : expiresAt, extended };
}

export type CloseOutcome =
  | { outcome: 'sold'; winning_bid_id: string; amount: number }
  | { outcome: 'expired'; reason: 'no_bids' | 'reserve_not_met' | 'manual' };

/** Days a seller has to accept one of the pending bids after an auction ends unsold (D8). */
export const PENDING_BID_DAYS_AFTER_CLOSE = 7;

/**
 * How a sale ends at expires_at (D8): an auto auction sells to its highest pending bid when that meets the reserve;
 * otherwise (no bids, reserve not met, a manual auction, or a fixed-price listing whose offers wait for the seller) the
 * listing expires and its pending bids stay open for the seller for PENDING_BID_DAYS_AFTER_CLOSE days.
 */
export function decideClose(
  auction: Pick<AuctionState, 'listing_type' | 'auction_type' | 'reserve_price'>,
  highest: { id: string; amount: number } | null,
): CloseOutcome {
  if (auction.listing_type === 'fixed' || auction.auction_type === 'manual') return { outcome: 'expired', reason: 'manual' };
  if (!highest) return { outcome: 'expired', reason: 'no_bids' };
  if (auction.reserve_price !== null && highest.amount < auction.reserve_price) return { outcome: 'expired', reason: 'reserve_not_met' };
  return { outcome: 'sold', winning_bid_id: highest.id, amount: highest.amount };
}
