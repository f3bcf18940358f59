import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { checkEventPayload, signEvent } from '@market/server-kit';
import { BUYING_HOLD_MESSAGE, ProxyBatch, STRIKE_WINDOW_DAYS, STRIKES_FOR_HOLD, type ProxyBatchMaximum, type ProxyBidDecision } from '@market/domain';
import { BARRED, BID_COLUMNS, type AuctionRecord, type BidRecord, type PlacedBid } from '../auctions/auction.records';
import { repairMaximums } from '../auctions/auction-maximums.repository';
import { countingStrike } from '../holds/buying-hold.sql';
import { UNKNOWN_BIDDER } from './bidder-names';
import { DATABASE_CLOCK, stampAfter } from '../auctions/database-clock';

/** One bid waiting in its listing's sequencer (ADR 0058), with what its own request carried. */
export interface QueuedBid {
  bidder: { id: string; name: string };
  amount: number;
  max_amount: number | null;
  /** When the bid arrived: it is decided as of then (D9), as a bid placed alone is decided as of its request. */
  now: Date;
  anti_sniping_minutes: number;
  /** The caller's request id and trace (ADR 0049), for the bid.placed rows it causes. */
  request_id: string | null;
  traceparent: string | null;
  /** When the caller stops waiting (epoch ms, ADR 0047), or null: a bid decided after it would be stored unanswered. */
  deadline?: number | null;
}

const MAXIMUM_COLUMNS = 'm.bidder_id, m.max_amount::float8 AS max_amount, m.set_at, m.proxy, m.bidder_name';
const STANDS = `EXISTS (SELECT 1 FROM bids b WHERE b.listing_id = m.listing_id AND b.bidder_id = m.bidder_id AND b.status = 'pending' AND b.kind = 'bid')`;

/**
 * The standing maximums a batch reads under the lock (ADR 0058; with the refused callers in BATCH_START_SQL): the two
 * highest and every caller's own, ordered by when they were set (ties by id), so ProxyBatch ranks ties as the database
 * does. Params: listing id, caller ids.
 */
const BATCH_STANDING_SQL = `
  SELECT * FROM (
    (SELECT ${MAXIMUM_COLUMNS} FROM auction_maximums m WHERE m.listing_id = $1 AND ${STANDS} ORDER BY m.max_amount DESC, m.set_at ASC LIMIT 2)
    UNION
    (SELECT ${MAXIMUM_COLUMNS} FROM auction_maximums m WHERE m.listing_id = $1 AND m.bidder_id = ANY($2::uuid[]) AND ${STANDS})
  ) s ORDER BY set_at ASC, bidder_id ASC`;

/**
 * Records a batch in one statement (ADR 0058, 0062): the bids (each created a microsecond after the one before, so the
 * history keeps their order), their bid.placed rows in the same order (outbox seq), the auction's one update (when a bid
 * was recorded) and the maximums the batch left, one row per bidder (ADR 0055): a maximum that rose gets a set time after
 * every bid of the batch and a microsecond after every maximum before it, in the order the batch raised them (as when
 * they were written after the bids); one that did not rise keeps its set time.
 * Params: listing id; bid ids, bidder ids, amounts, automatic, event ids, payloads, request ids, traceparents; price, bid
 * count, expires_at, bids recorded; maximums' bidder ids, amounts, proxy, names, raised, raise order; the batch's clock
 * (BATCH_START_SQL), the events' writer and their signatures (ADR 0065).
 */
const RECORD_BATCH_SQL = `
  WITH input AS (
    SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::bigint[], $5::boolean[], $6::uuid[], $7::jsonb[], $8::text[], $9::text[])
      WITH ORDINALITY AS t(id, bidder_id, amount, automatic, event_id, payload, request_id, traceparent, ord)
  ), clock AS (
    SELECT $20::timestamptz AS at
  ), bid AS (
    INSERT INTO bids (id, listing_id, bidder_id, kind, amount, automatic, created_at)
    SELECT i.id, $1, i.bidder_id, 'bid', i.amount, i.automatic, clock.at + i.ord * interval '1 microsecond' FROM input i, clock ORDER BY i.ord
    RETURNING ${BID_COLUMNS}
  ), moved AS (
    UPDATE auctions SET current_bid = $10, bid_count = $11, expires_at = $12, price_version = price_version + $13, updated_at = now()
    WHERE listing_id = $1 AND $13 > 0
  ), event AS (
    INSERT INTO outbox (id, name, payload, request_id, traceparent, sender, signature, occurred_at)
    SELECT i.event_id, 'bid.placed', i.payload, i.request_id, i.traceparent, $21, s.signature, (i.payload->>'created_at')::timestamptz
    FROM input i JOIN bid ON bid.id = i.id JOIN unnest($22::text[]) WITH ORDINALITY AS s(signature, ord) ON s.ord = i.ord ORDER BY i.ord
  ), maximum AS (
    SELECT * FROM unnest($14::uuid[], $15::bigint[], $16::boolean[], $17::text[], $18::boolean[], $19::int[]) AS t(bidder_id, max_amount, proxy, bidder_name, raised, ord)
  ), raised AS (
    UPDATE auction_maximums m SET max_amount = i.max_amount, proxy = i.proxy, bidder_name = i.bidder_name, updated_at = now(),
      set_at = CASE WHEN i.raised THEN clock.at + ($13 + i.ord) * interval '1 microsecond' ELSE m.set_at END
    FROM maximum i, clock WHERE m.listing_id = $1 AND m.bidder_id = i.bidder_id
    RETURNING m.bidder_id
  ), first_maximum AS (
    INSERT INTO auction_maximums (listing_id, bidder_id, max_amount, proxy, bidder_name, set_at)
    SELECT $1, i.bidder_id, i.max_amount, i.proxy, i.bidder_name, clock.at + ($13 + i.ord) * interval '1 microsecond'
    FROM maximum i, clock WHERE i.bidder_id NOT IN (SELECT bidder_id FROM raised)
  )
  SELECT * FROM bid`;

/**
 * The members among the callers ($2) who may not bid at $3, with why (ADR 0062): removed by moderation (ADR 0038) or on a
 * buying hold (ADR 0043: at least $5 strikes not lifted in the last $4 days, the rule of buyingOnHold in SQL).
 */
const REFUSED_SQL = `
  SELECT user_id, barred FROM (
    SELECT u.user_id,
      EXISTS (SELECT 1 FROM member_states s WHERE s.user_id = u.user_id AND s.status <> 'active') AS barred,
      (SELECT count(*) FROM buyer_strikes k WHERE k.buyer_id = u.user_id AND ${countingStrike('$3', '$4')}) >= $5 AS held
    FROM unnest($2::uuid[]) AS u(user_id)
  ) t WHERE barred OR held`;

/**
 * What a batch reads first under the lock, in one statement: the standing maximums as BATCH_STANDING_SQL, then the
 * refused callers, each row with the database's clock (one row of it alone when there are none). The batch's bids are
 * stamped from that clock, so their bid.placed events are whole, and signed, before they are written (ADR 0065).
 */
const BATCH_START_SQL = `
  WITH standing AS (${BATCH_STANDING_SQL}), refused AS (${REFUSED_SQL}),
  clock AS (SELECT ${DATABASE_CLOCK} AS clock)
  SELECT clock.clock, r.* FROM clock LEFT JOIN (
    SELECT false AS refused, bidder_id, max_amount, set_at, proxy, bidder_name, false AS barred FROM standing
    UNION ALL
    SELECT true, user_id, NULL, NULL, NULL, NULL, barred FROM refused
  ) r ON true ORDER BY r.refused, r.set_at ASC, r.bidder_id ASC`;


type StandingRow = { bidder_id: string; max_amount: number; set_at: Date; proxy: boolean; bidder_name: string | null };

async function readBatchStanding(manager: EntityManager, listingId: string, callerIds: string[]): Promise<StandingRow[]> {
  return manager.query(BATCH_STANDING_SQL, [listingId, callerIds]);
}

/** The standing maximums, why each refused caller may not bid, and the database's clock (BATCH_START_SQL). */
async function readBatchStart(manager: EntityManager, listingId: string, callerIds: string[], now: Date): Promise<{ rows: StandingRow[]; refused: Map<string, string>; clock: string }> {
  const all: (StandingRow & { refused: boolean | null; barred: boolean; clock: string })[] = await manager.query(BATCH_START_SQL, [listingId, callerIds, now, STRIKE_WINDOW_DAYS, STRIKES_FOR_HOLD]);
  const refused = new Map(all.filter((row) => row.refused === true).map((row) => [row.bidder_id, row.barred ? BARRED : BUYING_HOLD_MESSAGE]));
  return { rows: all.filter((row) => row.refused === false), refused, clock: all[0].clock };
}

interface PendingBid {
  entry: number;
  payload: EventPayloads['bid.placed'];
  automatic: boolean;
}

interface SavedMaximum {
  max_amount: number;
  proxy: boolean;
  name: string;
  raised: boolean;
  order: number;
}

/**
 * Decides a batch of bids on an auction whose row the caller has locked (ADR 0058), the only way a bid is decided: each
 * bid in arrival order by the proxy rule (ADR 0055), carrying the auction and the standing maximums forward in memory, then
 * writes every bid, event and maximum in one statement. A member removed by moderation or on a buying hold is refused.
 * `stop(index)` ends the deciding early (the lock-time cap): the answers cover the bids decided, in order. A refusal is that bid's own answer; nothing else fails one bid alone.
 */
export async function placeBatchLocked(locked: AuctionRecord, queued: QueuedBid[], stop: (index: number) => boolean, manager: EntityManager): Promise<PlacedBid[]> {
  const callerIds = [...new Set(queued.map((q) => q.bidder.id))];
  // Read after the lock, as for a bid alone: a suspension's sweep (ADR 0038) either sees these bids or they see it.
  const start = await readBatchStart(manager, locked.listing_id, callerIds, new Date());
  let rows = start.rows;
  const top = rows.reduce((best, row) => Math.max(best, row.max_amount), 0);
  // The leading maximum is never below the price; when it is, bids came without maximums (a previous release).
  if (locked.current_bid !== null && top < locked.current_bid) {
    await repairMaximums(manager, locked.listing_id);
    rows = await readBatchStanding(manager, locked.listing_id, callerIds);
  }
  const names = new Map(rows.map((row) => [row.bidder_id, row.bidder_name]));
  const seed: ProxyBatchMaximum[] = rows.map((row, order) => ({ bidder_id: row.bidder_id, max_amount: row.max_amount, set_at: row.set_at, proxy: row.proxy, order }));
  const batch = new ProxyBatch(locked, seed);
  let auction = locked;
  const pending: PendingBid[] = [];
  const saved = new Map<string, SavedMaximum>();
  const decisions: { decision: ProxyBidDecision; price_version: number; max_amount: number | null }[] = [];
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
      const payload: EventPayloads['bid.placed'] = {
        bid_id: randomUUID(),
        listing_id: auction.listing_id,
        bidder_id: placed.bidder_id,
        bidder_name: placed.bidder_id === q.bidder.id ? q.bidder.name : (names.get(placed.bidder_id) ?? UNKNOWN_BIDDER),
        amount: placed.amount,
        current_bid: placed.amount,
        bid_count: auction.bid_count + n + 1,
        reserve_met: auction.reserve_price === null || placed.amount >= auction.reserve_price,
        expires_at: decision.expires_at?.toISOString() ?? null,
        // Soft close moved the end once, with the first bid of the decision (D9).
        extended: decision.extended && n === 0,
        seller_id: auction.seller_id,
        listing_title: auction.title,
        previous_leader_id: placed.previous_leader_id,
        price_version: auction.price_version + n + 1,
        automatic: placed.automatic,
        // The time the statement below gives this bid: the batch's clock, a microsecond per bid before it.
        created_at: stampAfter(start.clock, pending.length + 1),
      };
      checkEventPayload('bid.placed', payload);
      pending.push({ entry: decisions.length, payload, automatic: placed.automatic });
    }
    // Stored when it rose, its proxy flag changed, or it is new (ADR 0055).
    const maximum = decision.caller_maximum;
    if (maximum.raised || maximum.proxy !== (before?.proxy ?? false) || !before) {
      const old = saved.get(q.bidder.id);
      if (maximum.raised) raises += 1;
      saved.set(q.bidder.id, { ...maximum, name: q.bidder.name, raised: maximum.raised || (old?.raised ?? false), order: maximum.raised ? raises : (old?.order ?? 0) });
      names.set(q.bidder.id, q.bidder.name);
    }
    auction = {
      ...auction,
      current_bid: decision.current_bid,
      bid_count: decision.bid_count,
      expires_at: decision.expires_at,
      price_version: auction.price_version + decision.bids.length,
    };
    decisions.push({ decision, price_version: auction.price_version, max_amount: maximum.proxy ? maximum.max_amount : null });
  }
  // A leader who only raised their maximum answers with their leading bid as it stood then: read before the writes,
  // so a later bid of this batch is not taken for it.
  const raisedOnly = new Set(decisions.flatMap(({ decision }, entry) => (decision.accepted && decision.bids.length === 0 ? [queued[entry].bidder.id] : [])));
  const leadingBefore = await leadingBidsOf(auction.listing_id, [...raisedOnly], manager);
  const recorded = await recordBatch(manager, auction, pending, queued, saved, start.clock);
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

/** Writes the batch's bids, their events, the auction's state and the maximums (one statement); the bids in the order given. */
async function recordBatch(manager: EntityManager, auction: AuctionRecord, pending: PendingBid[], queued: QueuedBid[], saved: Map<string, SavedMaximum>, clock: string): Promise<BidRecord[]> {
  if (pending.length === 0 && saved.size === 0) return [];
  const ids = pending.map((p) => p.payload.bid_id);
  const maximums = [...saved.entries()];
  const eventIds = pending.map(() => randomUUID());
  // An event occurs when its bid is stamped: the time is signed with it and stored as the outbox row's.
  const signed = pending.map((p, i) => signEvent(manager, { id: eventIds[i], name: 'bid.placed', occurred_at: p.payload.created_at, payload: p.payload }));
  const rows: BidRecord[] = await manager.query(RECORD_BATCH_SQL, [
    auction.listing_id,
    ids,
    pending.map((p) => p.payload.bidder_id),
    pending.map((p) => p.payload.amount),
    pending.map((p) => p.automatic),
    eventIds,
    pending.map((p) => JSON.stringify(p.payload)),
    pending.map((p) => queued[p.entry].request_id),
    pending.map((p) => queued[p.entry].traceparent),
    auction.current_bid,
    auction.bid_count,
    auction.expires_at,
    pending.length,
    maximums.map(([id]) => id),
    maximums.map(([, m]) => m.max_amount),
    maximums.map(([, m]) => m.proxy),
    maximums.map(([, m]) => m.name),
    maximums.map(([, m]) => m.raised),
    maximums.map(([, m]) => m.order),
    clock,
    signed[0]?.sender ?? null,
    signed.map((event) => event.signature),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) as BidRecord);
}

/**
 * The highest standing bid of each of these bidders in an auction, the earlier on equal amounts (a leader who only
 * raised their maximum answers with it): one statement for a whole batch.
 */
export async function leadingBidsOf(listingId: string, bidderIds: string[], manager: EntityManager): Promise<Map<string, BidRecord>> {
  if (bidderIds.length === 0) return new Map();
  const bids: BidRecord[] = await manager.query(
    `SELECT DISTINCT ON (bidder_id) ${BID_COLUMNS} FROM bids
      WHERE listing_id = $1 AND bidder_id = ANY($2::uuid[]) AND status = 'pending' AND kind = 'bid'
      ORDER BY bidder_id, amount DESC, created_at ASC`,
    [listingId, bidderIds],
  );
  return new Map(bids.map((bid) => [bid.bidder_id, bid]));
}
