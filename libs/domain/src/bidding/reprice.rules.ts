import { minimumNextBid } from './increment.rules';

/** One bid still standing in an auction: pending, public (never an offer), with its order of arrival. */
export interface StandingBid {
  id: string;
  bidder_id: string;
  amount: number;
  created_at: Date;
}

/** What an auction shows once bids have left it (ADR 0038). */
export interface RepricedState {
  /** The highest standing bid, or null when none is left (the starting price is then the next minimum). */
  current_bid: number | null;
  /** How many public bids still stand. */
  bid_count: number;
  /** The standing bid that leads (the close would sell to it, D8), or null. */
  leader: { bid_id: string; bidder_id: string } | null;
  /** Whether the current bid meets the reserve: true when there is no reserve, false with no bid against a reserve (D7). */
  reserve_met: boolean;
  /** The smallest bid the auction now takes (D6). */
  minimum_next_bid: number;
}

/**
 * Recomputes an auction from the bids that still stand after one or more were rejected (ADR 0038): the leader is the
 * highest amount, the earliest of equal amounts (the order the close uses, D8); the count is the standing bids; the
 * reserve is met only by a standing bid. Bids below the starting price cannot stand (decideBid never took one) and are
 * ignored, so a bad row never sets a price under the start.
 */
export function repriceAuction(terms: { starting_price: number; reserve_price: number | null }, standing: readonly StandingBid[]): RepricedState {
  const valid = standing.filter((bid) => bid.amount >= terms.starting_price);
  let leader: StandingBid | null = null;
  for (const bid of valid) {
    if (!leader || bid.amount > leader.amount || (bid.amount === leader.amount && bid.created_at.getTime() < leader.created_at.getTime())) leader = bid;
  }
  const current = leader ? leader.amount : null;
  return {
    current_bid: current,
    bid_count: valid.length,
    leader: leader ? { bid_id: leader.id, bidder_id: leader.bidder_id } : null,
    reserve_met: terms.reserve_price === null || (current !== null && current >= terms.reserve_price),
    minimum_next_bid: minimumNextBid(terms.starting_price, current),
  };
}
