import type { AuctionState } from './bid.rules';
import { decideProxyBid, type ProxyBidAttempt, type ProxyBidDecision, type ProxyMaximum, type ProxyStanding } from './proxy.rules';

/**
 * A standing maximum as a batch of bids reads it once under the auction's lock (ADR 0058). `order` ranks set times
 * (lower = set earlier) exactly as the database does, so ties are broken without the millisecond rounding of a Date.
 */
export interface ProxyBatchMaximum extends ProxyMaximum {
  proxy: boolean;
  order: number;
}

/** Whether `a` outranks `b` (ADR 0055): the higher maximum, the one set earlier on a tie. */
function ranksAbove(a: ProxyBatchMaximum, b: ProxyBatchMaximum): boolean {
  return a.max_amount > b.max_amount || (a.max_amount === b.max_amount && a.order < b.order);
}

/**
 * Decides a batch of bids on one auction in arrival order, in memory, under one lock (ADR 0058): each decision is the
 * one `decideProxyBid` makes for a single bid, and the auction's state and the standing maximums are carried forward,
 * so the batch is read once. Seed it with the two highest standing maximums and every caller's own standing maximum:
 * a bid only ever raises its caller's maximum, so the two highest after it are among those and the caller's.
 */
export class ProxyBatch {
  private readonly maximums = new Map<string, ProxyBatchMaximum>();
  private nextOrder: number;

  constructor(
    private current: AuctionState,
    seed: ProxyBatchMaximum[],
  ) {
    for (const maximum of seed) this.maximums.set(maximum.bidder_id, maximum);
    this.nextOrder = Math.max(0, ...seed.map((m) => m.order)) + 1;
  }

  /** The auction as the bids decided so far left it. */
  get auction(): AuctionState {
    return this.current;
  }

  /** A bidder's standing maximum as the bids decided so far left it, or null while they have no standing bid. */
  maximumOf(bidderId: string): ProxyBatchMaximum | null {
    return this.maximums.get(bidderId) ?? null;
  }

  /** What the lock would read for the caller now: the two highest standing maximums and the caller's own. */
  standing(callerId: string): ProxyStanding {
    let leader: ProxyBatchMaximum | null = null;
    let runnerUp: ProxyBatchMaximum | null = null;
    for (const maximum of this.maximums.values()) {
      if (!leader || ranksAbove(maximum, leader)) [leader, runnerUp] = [maximum, leader];
      else if (!runnerUp || ranksAbove(maximum, runnerUp)) runnerUp = maximum;
    }
    const own = this.maximums.get(callerId);
    const plain = (m: ProxyBatchMaximum | null): ProxyMaximum | null => (m ? { bidder_id: m.bidder_id, max_amount: m.max_amount, set_at: m.set_at } : null);
    return { leader: plain(leader), runner_up: plain(runnerUp), caller: own ? { ...plain(own)!, proxy: own.proxy } : null };
  }

  /**
   * Decides the next bid as `decideProxyBid` would with what the lock reads after the earlier ones; when it is taken,
   * the auction moves and the caller's maximum is kept (its set time moves only when it rose, as the store does).
   */
  decide(attempt: ProxyBidAttempt, now: Date, antiSnipingMinutes: number): ProxyBidDecision {
    const decision = decideProxyBid(this.current, this.standing(attempt.bidder_id), attempt, now, antiSnipingMinutes);
    if (!decision.accepted) return decision;
    const old = this.maximums.get(attempt.bidder_id);
    const { max_amount, raised, proxy } = decision.caller_maximum;
    const moved = raised || !old;
    this.maximums.set(attempt.bidder_id, {
      bidder_id: attempt.bidder_id,
      max_amount,
      proxy,
      set_at: moved ? now : old.set_at,
      order: moved ? this.nextOrder++ : old.order,
    });
    this.current = { ...this.current, current_bid: decision.current_bid, bid_count: decision.bid_count, expires_at: decision.expires_at };
    return decision;
  }
}
