import { formatDollars } from '../money/money.rules';
import { auctionRefusal, decideBid, DEFAULT_ANTI_SNIPING_MINUTES, invalidAmount, softClose, type AuctionState } from './bid.rules';
import { minimumNextBid } from './increment.rules';

/** Why an offer takes no maximum (ADR 0055): an offer is one amount the seller accepts or rejects (D5). */
export const NO_MAXIMUM_ON_OFFERS = 'Offers take no maximum bid: offer the amount you want to pay.';
/** Why a manual auction takes no maximum (ADR 0055): its seller picks the winner (D8), so nobody bids for anyone. */
export const NO_MAXIMUM_ON_MANUAL = 'The seller picks the winner of this auction, so it takes no maximum bid: bid the amount you offer.';

/** One bidder's maximum in an automatic auction (ADR 0055): the most the system may bid for them, and when it last rose. */
export interface ProxyMaximum {
  bidder_id: string;
  max_amount: number;
  set_at: Date;
}

/** What the auction's row lock reads before a bid (ADR 0055): the two highest maximums and the caller's own. */
export interface ProxyStanding {
  /** The highest maximum among bidders still standing, the earliest on a tie: the leader. */
  leader: ProxyMaximum | null;
  /** The next highest maximum. */
  runner_up: ProxyMaximum | null;
  /** The caller's own maximum here, if they bid before; `proxy` when they set it with max_amount (only then shown back). */
  caller: (ProxyMaximum & { proxy: boolean }) | null;
}

export interface ProxyBidAttempt {
  bidder_id: string;
  /** What the bidder typed. */
  amount: number;
  /** The most the system may bid for them, or null for a plain bid (their maximum is then the amount). */
  max_amount: number | null;
}

/** One bid to record, in order. Public as it is: it never carries a maximum other than the price it sets. */
export interface ProxyRecordedBid {
  bidder_id: string;
  /** The bid's amount, which is also the auction's price right after it. */
  amount: number;
  /** Placed by the system at a price the bidder did not type (ADR 0055). */
  automatic: boolean;
  /** The bidder who led before, set only when the lead changed hands (someone's maximum was passed, D19). */
  previous_leader_id: string | null;
}

export type ProxyBidDecision =
  | { accepted: false; reason: string }
  | {
      accepted: true;
      /** The bids to record, in order: the caller's typed bid, then an automatic bid for whoever leads when the price is above it. */
      bids: ProxyRecordedBid[];
      current_bid: number;
      bid_count: number;
      expires_at: Date | null;
      /** Soft close moved the end (D9): only a bid that changes the price does. */
      extended: boolean;
      price_changed: boolean;
      leader_id: string;
      /** Whether the caller leads once decided. */
      leading: boolean;
      /** The caller's maximum to store (private). `raised` when it grew: it then ranks after every maximum already set. */
      caller_maximum: { max_amount: number; raised: boolean; proxy: boolean };
    };

/** Whether maximum `a` outranks `b` (ADR 0055): the higher one, the one set earlier on a tie. */
export function outranks(a: Pick<ProxyMaximum, 'max_amount' | 'set_at'>, b: Pick<ProxyMaximum, 'max_amount' | 'set_at'>): boolean {
  return a.max_amount > b.max_amount || (a.max_amount === b.max_amount && a.set_at.getTime() < b.set_at.getTime());
}

/**
 * The price of an automatic auction (ADR 0055) from its leader's maximum, the highest amount the leader typed, and the
 * runner-up's maximum: at least the starting price and the leader's typed bid (a bid someone typed stands); the
 * runner-up's maximum plus its increment (D6), capped at the leader's maximum; and at least the reserve once the
 * leader's maximum reaches it (D7). Every part is at most the leader's maximum, so the price never exceeds it.
 */
export function proxyPrice(
  terms: { starting_price: number; reserve_price: number | null },
  leaderMax: number,
  leaderTyped: number | null,
  runnerUpMax: number | null,
): number {
  let price = Math.max(terms.starting_price, leaderTyped ?? 0);
  if (runnerUpMax !== null) price = Math.max(price, Math.min(leaderMax, minimumNextBid(terms.starting_price, runnerUpMax)));
  if (terms.reserve_price !== null && leaderMax >= terms.reserve_price) price = Math.max(price, terms.reserve_price);
  return price;
}

/** Why a bid's maximum is refused before anything else (ADR 0055), or null: offers and manual auctions take none. */
export function maximumRefusal(auction: Pick<AuctionState, 'listing_type' | 'auction_type'>, amount: number, maxAmount: number | null): string | null {
  if (maxAmount === null) return null;
  if (auction.listing_type === 'fixed') return NO_MAXIMUM_ON_OFFERS;
  if (auction.auction_type === 'manual') return NO_MAXIMUM_ON_MANUAL;
  if (invalidAmount(maxAmount)) return 'Maximum bid must be a whole number of dollars, at least $1';
  if (maxAmount < amount) return 'Your maximum bid must be at least your bid';
  return null;
}

/**
 * Why the leader's request to raise only their maximum is refused (ADR 0055), or null: the new maximum must be above the
 * one they hold. The web's "Raise your maximum" shows the same words before sending (ADR 0060).
 */
export function maximumRaiseRefusal(currentMax: number, maxAmount: number): string | null {
  return maxAmount <= currentMax ? `Your maximum bid is already ${formatDollars(currentMax)}: enter a higher maximum to raise it` : null;
}

/**
 * Decides one bid on an auction under its row lock (ADR 0055, D6, D9). The caller's new maximum is the highest of their
 * old one, `max_amount` and `amount`. A caller who does not lead must bid at least the minimum next bid (D6); their typed
 * bid is recorded, and then the leader is whoever holds the highest maximum (the earlier on a tie, so an incumbent keeps
 * the lead against an equal maximum): when that is someone else, their automatic bid answers at once. The leader who
 * sends a higher `max_amount` with an amount below the minimum only raises their maximum: nothing is recorded unless the
 * price must rise (the reserve, or a runner-up the old maximum capped). Whoever leads gets an automatic bid at the price
 * when the price is above the last bid recorded. Soft close moves the end only when the price changed.
 */
export function decideProxyBid(
  auction: AuctionState,
  standing: ProxyStanding,
  attempt: ProxyBidAttempt,
  now: Date,
  antiSnipingMinutes = DEFAULT_ANTI_SNIPING_MINUTES,
): ProxyBidDecision {
  const { bidder_id: callerId, amount, max_amount: maxAmount } = attempt;
  const badAmount = invalidAmount(amount);
  if (badAmount) return { accepted: false, reason: badAmount };
  const badMaximum = maximumRefusal(auction, amount, maxAmount);
  if (badMaximum) return { accepted: false, reason: badMaximum };
  const { leader, runner_up: runnerUp } = standing;
  const callerLeads = leader !== null && leader.bidder_id === callerId;
  const previousMax = callerLeads ? leader.max_amount : (standing.caller?.max_amount ?? 0);
  const maxOnly = callerLeads && maxAmount !== null && amount < minimumNextBid(auction.starting_price, auction.current_bid);
  if (maxOnly) {
    const refusal = auctionRefusal(auction, callerId, now);
    if (refusal) return { accepted: false, reason: refusal };
    const notHigher = maximumRaiseRefusal(previousMax, maxAmount);
    if (notHigher) return { accepted: false, reason: notHigher };
  } else {
    const basic = decideBid(auction, { bidder_id: callerId, amount }, now, antiSnipingMinutes);
    if (!basic.accepted) return basic;
  }
  const typed = maxOnly ? null : amount;
  const newMax = Math.max(previousMax, maxAmount ?? 0, amount);
  const callerMaximum = { max_amount: newMax, raised: newMax > previousMax, proxy: (standing.caller?.proxy ?? false) || maxAmount !== null };
  // A price never falls on a bid, and a typed bid stands.
  const floor = Math.max(auction.current_bid ?? 0, typed ?? 0);
  // The incumbent wins a tie: a maximum that rose now was set after theirs. A caller who leads keeps the lead. On a
  // manual auction nobody bids for anyone: every bid leads at its amount, as before proxy bidding.
  const proxy = auction.auction_type === 'auto';
  const rival = callerLeads ? runnerUp : leader;
  const callerWins = !proxy || callerLeads || rival === null || newMax > rival.max_amount;
  const bids: ProxyRecordedBid[] = [];
  let price: number;
  let leaderId: string;
  if (callerWins) {
    leaderId = callerId;
    price = proxy ? Math.max(floor, proxyPrice(auction, newMax, typed, rival?.max_amount ?? null)) : floor;
    const previousLeader = callerLeads || leader === null ? null : leader.bidder_id;
    if (typed !== null) bids.push({ bidder_id: callerId, amount: typed, automatic: false, previous_leader_id: previousLeader });
    if (price > (typed ?? auction.current_bid ?? 0)) {
      bids.push({ bidder_id: callerId, amount: price, automatic: true, previous_leader_id: typed === null ? previousLeader : null });
    }
  } else {
    const incumbent = leader as ProxyMaximum;
    leaderId = incumbent.bidder_id;
    const others = runnerUp && runnerUp.bidder_id !== callerId ? runnerUp.max_amount : 0;
    price = Math.max(floor, proxyPrice(auction, incumbent.max_amount, null, Math.max(newMax, others)));
    // The typed bid is recorded, then the incumbent's answer at the price (even at an equal amount: it must stand to win).
    bids.push({ bidder_id: callerId, amount, automatic: false, previous_leader_id: null });
    bids.push({ bidder_id: incumbent.bidder_id, amount: price, automatic: true, previous_leader_id: null });
  }
  const priceChanged = bids.length > 0;
  const end = priceChanged ? softClose(auction.expires_at, now, antiSnipingMinutes) : { expires_at: auction.expires_at, extended: false };
  return {
    accepted: true,
    bids,
    current_bid: price,
    bid_count: auction.bid_count + bids.length,
    expires_at: end.expires_at,
    extended: end.extended,
    price_changed: priceChanged,
    leader_id: leaderId,
    leading: leaderId === callerId,
    caller_maximum: callerMaximum,
  };
}
