import { minimumNextBid } from './increment.rules';
import { outranks, proxyPrice, type ProxyMaximum } from './proxy.rules';
import type { StandingBid } from './reprice.rules';

/** A standing bid of an automatic auction, marked when the system placed it for a maximum (ADR 0055). */
export interface ProxyStandingBid extends StandingBid {
  automatic: boolean;
}

/** A live automatic auction once bids left it (ADR 0038, ADR 0055), and the bids that makes right. */
export interface ProxyRepricedState {
  current_bid: number | null;
  /** Standing bids once `withdraw` left and `add` came in. */
  bid_count: number;
  /** The bidder who now leads (the highest maximum still standing), or null. */
  leader_id: string | null;
  reserve_met: boolean;
  minimum_next_bid: number;
  /** The leader's automatic bids above the new price: placed only to beat a maximum that has left, they leave too. */
  withdraw: string[];
  /** An automatic bid for the leader at the new price, when none of theirs stands at it (the close sells the top bid, D8). */
  add: { bidder_id: string; amount: number } | null;
}

interface Standing {
  bidder_id: string;
  max_amount: number;
  set_at: Date;
  typed: number | null;
}

/**
 * Recomputes a live automatic auction from the bids still standing and the maximums of their bidders (ADR 0055), as if
 * those had been the only bids: each standing bidder's maximum is the greater of their stored maximum and their highest
 * standing bid (set when that bid was, if it is the greater); the leader, the price and the reserve follow the proxy rule
 * (`proxyPrice`), the leader's highest typed standing bid as its floor. A maximum whose bidder has no standing bid is
 * ignored, and so are bids below the starting price (they cannot stand, ADR 0038).
 */
export function repriceWithMaximums(
  terms: { starting_price: number; reserve_price: number | null },
  standing: readonly ProxyStandingBid[],
  maximums: readonly ProxyMaximum[],
): ProxyRepricedState {
  const valid = standing.filter((bid) => bid.amount >= terms.starting_price);
  const byBidder = new Map<string, Standing>();
  for (const bid of valid) {
    const seen = byBidder.get(bid.bidder_id);
    const typed = bid.automatic ? null : bid.amount;
    if (!seen) {
      byBidder.set(bid.bidder_id, { bidder_id: bid.bidder_id, max_amount: bid.amount, set_at: bid.created_at, typed });
      continue;
    }
    if (typed !== null && (seen.typed === null || typed > seen.typed)) seen.typed = typed;
    if (outranks({ max_amount: bid.amount, set_at: bid.created_at }, seen)) Object.assign(seen, { max_amount: bid.amount, set_at: bid.created_at });
  }
  for (const maximum of maximums) {
    const seen = byBidder.get(maximum.bidder_id);
    if (seen && maximum.max_amount >= seen.max_amount) Object.assign(seen, { max_amount: maximum.max_amount, set_at: maximum.set_at });
  }
  const ranked = [...byBidder.values()].sort((a, b) => (outranks(a, b) ? -1 : outranks(b, a) ? 1 : 0));
  const [leader, runnerUp] = ranked;
  if (!leader) {
    return { current_bid: null, bid_count: valid.length, leader_id: null, reserve_met: terms.reserve_price === null, minimum_next_bid: terms.starting_price, withdraw: [], add: null };
  }
  const price = proxyPrice(terms, leader.max_amount, leader.typed, runnerUp?.max_amount ?? null);
  const withdraw = valid.filter((bid) => bid.bidder_id === leader.bidder_id && bid.automatic && bid.amount > price).map((bid) => bid.id);
  const kept = valid.filter((bid) => bid.bidder_id === leader.bidder_id && !withdraw.includes(bid.id));
  const add = kept.some((bid) => bid.amount >= price) ? null : { bidder_id: leader.bidder_id, amount: price };
  return {
    current_bid: price,
    bid_count: valid.length - withdraw.length + (add ? 1 : 0),
    leader_id: leader.bidder_id,
    reserve_met: terms.reserve_price === null || price >= terms.reserve_price,
    minimum_next_bid: minimumNextBid(terms.starting_price, price),
    withdraw,
    add,
  };
}
