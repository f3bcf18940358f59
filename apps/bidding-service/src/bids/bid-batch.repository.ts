import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { signEvent } from '@market/server-kit';
import { STRIKE_WINDOW_DAYS, STRIKES_FOR_HOLD } from '@market/domain';
import { BID_COLUMNS, type AuctionRecord, type BidRecord } from '../auctions/auction.records';
import { countingStrike } from '../holds/buying-hold.sql';
import { DATABASE_CLOCK } from '../auctions/database-clock';
import type { BidPlacedPayload } from './bid-placed.event';
import type { SavedMaximum, StandingMaximum } from './decide-batch';

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


/**
 * The rows of a batch (ADR 0058, 0062, 0070): what it reads under the auction's lock and its one write. Plain reads and
 * writes: PlaceBids decides between them (decide-batch).
 */
export const batchRows = { readStart, readStanding, record, leadingBidsOf };

/** The standing maximums (BATCH_STANDING_SQL), as re-read after a repair. */
async function readStanding(manager: EntityManager, listingId: string, callerIds: string[]): Promise<StandingMaximum[]> {
  return manager.query(BATCH_STANDING_SQL, [listingId, callerIds]);
}

/** The standing maximums, the callers removed (barred) or on a buying hold, and the database's clock (BATCH_START_SQL). */
async function readStart(manager: EntityManager, listingId: string, callerIds: string[], now: Date): Promise<{ standing: StandingMaximum[]; stopped: Map<string, { barred: boolean; held: boolean }>; clock: string }> {
  const all: (StandingMaximum & { refused: boolean | null; barred: boolean; clock: string })[] = await manager.query(BATCH_START_SQL, [listingId, callerIds, now, STRIKE_WINDOW_DAYS, STRIKES_FOR_HOLD]);
  // A refused row is a caller removed by moderation or else on a hold (REFUSED_SQL).
  const stopped = new Map(all.filter((row) => row.refused === true).map((row) => [row.bidder_id, { barred: row.barred, held: !row.barred }]));
  return { standing: all.filter((row) => row.refused === false), stopped, clock: all[0].clock };
}

/** A bid to record, its event's payload and the request it answers (ADR 0049). */
export interface BidRow {
  payload: BidPlacedPayload;
  automatic: boolean;
  request_id: string | null;
  traceparent: string | null;
}

/** What one batch writes: its bids in order (with their events), the auction's new state, the maximums it left. */
export interface BatchRows {
  auction: Pick<AuctionRecord, 'listing_id' | 'current_bid' | 'bid_count' | 'expires_at'>;
  bids: BidRow[];
  maximums: [bidderId: string, maximum: SavedMaximum][];
  /** The batch's database clock (BATCH_START_SQL): the bids' stamps count from it. */
  clock: string;
}

/** Writes a batch's bids, their signed bid.placed rows, the auction and the maximums in one statement; the bids in order. */
async function record(manager: EntityManager, rows: BatchRows): Promise<BidRecord[]> {
  const { auction, bids, maximums } = rows;
  if (bids.length === 0 && maximums.length === 0) return [];
  const ids = bids.map((b) => b.payload.bid_id);
  const eventIds = bids.map(() => randomUUID());
  // An event occurs when its bid is stamped: the time is signed with it and stored as the outbox row's (ADR 0065).
  const signed = bids.map((b, i) => signEvent(manager, { id: eventIds[i], name: 'bid.placed', occurred_at: b.payload.created_at, payload: b.payload }));
  const stored: BidRecord[] = await manager.query(RECORD_BATCH_SQL, [
    auction.listing_id,
    ids,
    bids.map((b) => b.payload.bidder_id),
    bids.map((b) => b.payload.amount),
    bids.map((b) => b.automatic),
    eventIds,
    bids.map((b) => JSON.stringify(b.payload)),
    bids.map((b) => b.request_id),
    bids.map((b) => b.traceparent),
    auction.current_bid,
    auction.bid_count,
    auction.expires_at,
    bids.length,
    maximums.map(([id]) => id),
    maximums.map(([, m]) => m.max_amount),
    maximums.map(([, m]) => m.proxy),
    maximums.map(([, m]) => m.name),
    maximums.map(([, m]) => m.raised),
    maximums.map(([, m]) => m.order),
    rows.clock,
    signed[0]?.sender ?? null,
    signed.map((event) => event.signature),
  ]);
  const byId = new Map(stored.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) as BidRecord);
}

/**
 * The highest standing bid of each of these bidders in an auction, the earlier on equal amounts (a leader who only
 * raised their maximum answers with it): one statement for a whole batch.
 */
async function leadingBidsOf(listingId: string, bidderIds: string[], manager: EntityManager): Promise<Map<string, BidRecord>> {
  if (bidderIds.length === 0) return new Map();
  const bids: BidRecord[] = await manager.query(
    `SELECT DISTINCT ON (bidder_id) ${BID_COLUMNS} FROM bids
      WHERE listing_id = $1 AND bidder_id = ANY($2::uuid[]) AND status = 'pending' AND kind = 'bid'
      ORDER BY bidder_id, amount DESC, created_at ASC`,
    [listingId, bidderIds],
  );
  return new Map(bids.map((bid) => [bid.bidder_id, bid]));
}
