import { ProxyBatch, type ProxyBatchMaximum, type ProxyBidDecision } from '@market/domain';
import type { AuctionRecord, BidRecord, PlacedBid } from '../auctions/auction.records';
import { UNKNOWN_BIDDER } from './bidder-names';
import { bidPlacedPayload, type BidPlacedPayload } from './bid-placed.event';
import type { QueuedBid } from './queued-bid';

/** A standing maximum as the batch reads it under the lock, ordered by when it was set (ADR 0055). */
export interface StandingMaximum {
  bidder_id: string;
  max_amount: number;
  set_at: Date;
  proxy: boolean;
  bidder_name: string | null;
}

/** A bid the batch records, with the queued entry it answers. */
export interface PendingBid {
  entry: number;
  payload: BidPlacedPayload;
  automatic: boolean;
}

/** A maximum the batch leaves for one bidder: `raised` ones get a set time after every bid, in `order` (ADR 0055). */
export interface SavedMaximum {
  max_amount: number;
  proxy: boolean;
  name: string;
  raised: boolean;
  order: number;
}

/** What the batch decided, before anything is written. */
export interface BatchDecision {
  /** One per queued bid decided, in arrival order. */
  decisions: { decision: ProxyBidDecision; price_version: number; max_amount: number | null }[];
  /** The bids to record, in order, each with its bid.placed payload. */
  pending: PendingBid[];
  saved: Map<string, SavedMaximum>;
  /** The auction as the batch leaves it. */
  auction: AuctionRecord;
  /** Bidders whose request only raised their maximum: they answer with their leading bid as it stood. */
  raisedOnly: string[];
}

/** What the batch knows when it starts deciding (read under the lock). */
export interface BatchStart {
  locked: AuctionRecord;
  standing: StandingMaximum[];
  /** Why each refused caller may not bid (removed by moderation, or on a buying hold). */
  refused: Map<string, string>;
  /** The database's clock under the lock: the batch's bids are stamped from it (ADR 0065). */
  clock: string;
}

/**
 * Decides a batch in memory (ADR 0058, 0070): each bid in arrival order by the proxy rule of libs/domain, carrying the
 * auction and the maximums forward; a refused caller's bid is refused. `stop(index)` ends the deciding early (the
 * lock-time cap). Pure: the caller reads before and records after.
 */
export function decideBatch(start: BatchStart, queued: QueuedBid[], stop: (index: number) => boolean): BatchDecision {
  const names = new Map(start.standing.map((row) => [row.bidder_id, row.bidder_name]));
  const seed: ProxyBatchMaximum[] = start.standing.map((row, order) => ({ bidder_id: row.bidder_id, max_amount: row.max_amount, set_at: row.set_at, proxy: row.proxy, order }));
  const batch = new ProxyBatch(start.locked, seed);
  let auction = start.locked;
  const pending: PendingBid[] = [];
  const saved = new Map<string, SavedMaximum>();
  const decisions: BatchDecision['decisions'] = [];
  let raises = 0;
  for (const [index, q] of queued.entries()) {
    if (stop(index)) break;
    const refusal = start.refused.get(q.bidder.id);
    if (refusal) {
      decisions.push({ decision: { accepted: false, reason: refusal }, price_version: auction.price_version, max_amount: null });
      continue;
    }
    const before = batch.maximumOf(q.bidder.id);
    const decision = batch.decide({ bidder_id: q.bidder.id, amount: q.amount, max_amount: q.max_amount }, q.now, q.anti_sniping_minutes);
    if (!decision.accepted) {
      decisions.push({ decision, price_version: auction.price_version, max_amount: null });
      continue;
    }
    for (const [n, placed] of decision.bids.entries()) {
      const bidderName = placed.bidder_id === q.bidder.id ? q.bidder.name : (names.get(placed.bidder_id) ?? UNKNOWN_BIDDER);
      // Stamped as the recording statement stamps it: the batch's clock, a microsecond per bid before it.
      pending.push({ entry: decisions.length, payload: bidPlacedPayload(auction, decision, n, bidderName, start.clock, pending.length + 1), automatic: placed.automatic });
    }
    // Stored when it rose, its proxy flag changed, or it is new (ADR 0055).
    const maximum = decision.caller_maximum;
    if (maximum.raised || maximum.proxy !== (before?.proxy ?? false) || !before) {
      const old = saved.get(q.bidder.id);
      if (maximum.raised) raises += 1;
      saved.set(q.bidder.id, { ...maximum, name: q.bidder.name, raised: maximum.raised || (old?.raised ?? false), order: maximum.raised ? raises : (old?.order ?? 0) });
      names.set(q.bidder.id, q.bidder.name);
    }
    auction = { ...auction, current_bid: decision.current_bid, bid_count: decision.bid_count, expires_at: decision.expires_at, price_version: auction.price_version + decision.bids.length };
    decisions.push({ decision, price_version: auction.price_version, max_amount: maximum.proxy ? maximum.max_amount : null });
  }
  const raisedOnly = [...new Set(decisions.flatMap(({ decision }, entry) => (decision.accepted && decision.bids.length === 0 ? [queued[entry].bidder.id] : [])))];
  return { decisions, pending, saved, auction, raisedOnly };
}

/**
 * Each decided bid's answer (ADR 0055): the decision, the bids it recorded, and the caller's bid: the one they typed,
 * else the automatic one placed for them, else (a raised maximum) their leading bid when it was decided.
 */
export function answersOf(decided: BatchDecision, queued: QueuedBid[], recorded: BidRecord[], leadingBefore: Map<string, BidRecord>): PlacedBid[] {
  const { decisions, pending } = decided;
  return decisions.map(({ decision, price_version, max_amount }, entry): PlacedBid => {
    if (!decision.accepted) return { decision, bid: null, recorded: [], max_amount: null };
    const bidder = queued[entry].bidder.id;
    const own = recorded.filter((_, i) => pending[i].entry === entry);
    const mine = own.filter((bid) => bid.bidder_id === bidder);
    return { decision, bid: mine.find((b) => !b.automatic) ?? mine[0] ?? leadingAt(entry, bidder), recorded: own, price_version, max_amount };
  });

  /** The bidder's highest standing bid when entry `entry` was decided (the earlier on equal amounts). */
  function leadingAt(entry: number, bidder: string): BidRecord | null {
    let best = leadingBefore.get(bidder) ?? null;
    pending.forEach((p, i) => {
      if (p.entry < entry && p.payload.bidder_id === bidder && recorded[i].amount > (best?.amount ?? 0)) best = recorded[i];
    });
    return best;
  }
}
