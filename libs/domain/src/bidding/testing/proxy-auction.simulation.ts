import type { AuctionState } from '../bid.rules';
import { repriceWithMaximums, type ProxyRepricedState, type ProxyStandingBid } from '../proxy-reprice.rules';
import { decideProxyBid, outranks, type ProxyBidAttempt, type ProxyBidDecision, type ProxyStanding } from '../proxy.rules';

/** The moment the simulated bids are decided at. */
export const NOW = new Date('2026-11-26T12:00:00Z');
type Terms = { starting_price: number; reserve_price: number | null };

/**
 * An auction as bidding-service keeps it, in memory: the auction row, one maximum row per bidder, the bid rows. It reads
 * the standing, decides, and records as AuctionsRepository does under the row lock (ADR 0055).
 */
export class SimulatedAuction {
  auction: AuctionState;
  readonly rows = new Map<string, { max_amount: number; set_at: Date; proxy: boolean }>();
  bids: ProxyStandingBid[] = [];
  private tick = 0;
  // Bid ids from a counter of their own: ids from the bids' count repeat once a removal shortens the list.
  private issued = 0;

  constructor(terms: Terms, overrides: Partial<AuctionState> = {}) {
    this.auction = {
      seller_id: 'seller', listing_type: 'auction', auction_type: 'auto', status: 'active', current_bid: null, bid_count: 0,
      expires_at: new Date(NOW.getTime() + 86_400_000), ...terms, ...overrides,
    };
  }

  private nextId(): string {
    this.issued += 1;
    return `bid${this.issued}`;
  }

  private at(): Date {
    this.tick += 1;
    return new Date(NOW.getTime() - 3_600_000 + this.tick);
  }

  /** Maximums of bidders with a standing bid, best first. */
  ranked() {
    const standing = new Set(this.bids.map((b) => b.bidder_id));
    return [...this.rows]
      .filter(([id]) => standing.has(id))
      .map(([bidder_id, row]) => ({ bidder_id, max_amount: row.max_amount, set_at: row.set_at }))
      .sort((a, b) => (outranks(a, b) ? -1 : outranks(b, a) ? 1 : 0));
  }

  standing(callerId: string): ProxyStanding {
    const [leader, runnerUp] = this.ranked();
    const own = this.rows.get(callerId);
    return { leader: leader ?? null, runner_up: runnerUp ?? null, caller: own && this.bids.some((b) => b.bidder_id === callerId) ? { bidder_id: callerId, ...own } : null };
  }

  place(attempt: ProxyBidAttempt, minutes = 0): ProxyBidDecision {
    const decision = decideProxyBid(this.auction, this.standing(attempt.bidder_id), attempt, NOW, minutes);
    if (!decision.accepted) return decision;
    for (const bid of decision.bids) {
      this.bids.push({ id: this.nextId(), bidder_id: bid.bidder_id, amount: bid.amount, created_at: this.at(), automatic: bid.automatic });
    }
    const old = this.rows.get(attempt.bidder_id);
    const { max_amount, raised, proxy } = decision.caller_maximum;
    this.rows.set(attempt.bidder_id, { max_amount, proxy, set_at: raised || !old ? this.at() : old.set_at });
    this.auction = { ...this.auction, current_bid: decision.current_bid, bid_count: decision.bid_count, expires_at: decision.expires_at };
    return decision;
  }

  /** A bidder's bids all leave (suspension): the repricing the repository runs, applied. */
  remove(bidderId: string): ProxyRepricedState {
    this.bids = this.bids.filter((b) => b.bidder_id !== bidderId);
    this.rows.delete(bidderId);
    const state = repriceWithMaximums(this.auction, this.bids, [...this.rows].map(([bidder_id, row]) => ({ bidder_id, ...row })));
    this.bids = this.bids.filter((b) => !state.withdraw.includes(b.id));
    if (state.add) this.bids.push({ id: this.nextId(), ...state.add, created_at: this.at(), automatic: true });
    this.auction = { ...this.auction, current_bid: state.current_bid, bid_count: state.bid_count };
    return state;
  }

  /** The bid the close sells to, ordered as its SQL orders: amount, then the bidder's maximum, then its age. */
  closeWinner(): ProxyStandingBid | null {
    const rank = new Map(this.ranked().map((m, i) => [m.bidder_id, i]));
    const sorted = [...this.bids].sort((a, b) => b.amount - a.amount || (rank.get(a.bidder_id) ?? 99) - (rank.get(b.bidder_id) ?? 99));
    return sorted[0] ?? null;
  }

  leader(): string | null {
    return this.ranked()[0]?.bidder_id ?? null;
  }
}

