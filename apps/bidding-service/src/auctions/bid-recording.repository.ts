import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { checkEventPayload, currentRequestId, currentTraceparent, signEvent } from '@market/server-kit';
import { decideProxyBid, type ProxyBidDecision } from '@market/domain';
import type { AuctionRecord, BidRecord } from './auctions.repository';
import { readStanding, repairMaximums, saveMaximum } from './auction-maximums.repository';
import { UNKNOWN_BIDDER } from './bidder-names';
import { clockPlus, DATABASE_CLOCK, stampAfter } from './database-clock';

export const BID_COLUMNS = 'id, listing_id, bidder_id, kind, amount::float8 AS amount, status, automatic, created_at';

/**
 * Records one bid while its auction row is locked, in one statement (fewer round trips under the lock): the bid, the
 * auction's new state (its price is the bid's amount, ADR 0055), and its bid.placed outbox row, signed (ADR 0065), with
 * the bid's database time already in it. Params: bid id, listing id, bidder id, amount, bid count, expires_at, event id,
 * payload, request id, traceparent (ADR 0049), automatic, the bid's time, the event's writer and signature.
 */
export const RECORD_BID_SQL = `
  WITH bid AS (
    INSERT INTO bids (id, listing_id, bidder_id, kind, amount, automatic, created_at) VALUES ($1, $2, $3, 'bid', $4, $11, $12::timestamptz) RETURNING ${BID_COLUMNS}
  ), moved AS (
    UPDATE auctions SET current_bid = $4, bid_count = $5, expires_at = $6, price_version = price_version + 1, updated_at = now() WHERE listing_id = $2
  ), event AS (
    INSERT INTO outbox (id, name, payload, request_id, traceparent, sender, signature, occurred_at)
    SELECT $7, 'bid.placed', $8::jsonb, $9, $10, $13, $14, ($8::jsonb->>'created_at')::timestamptz FROM bid
  )
  SELECT * FROM bid`;

/** What placing a bid left (ADR 0055): the decision, the bids recorded in order, and what only the caller may see. */
export interface PlacedBid {
  decision: ProxyBidDecision;
  /** The caller's bid: the one they typed, else the automatic one placed for them, else (a raised maximum) their leading bid. */
  bid: BidRecord | null;
  /** Every bid recorded, in order, each with its bid.placed. */
  recorded: BidRecord[];
  price_version?: number;
  /** The caller's maximum here once decided, when they set one; for their answer only. */
  max_amount: number | null;
  /** The auction as the bid left it, for a caller that goes on deciding under the same lock. */
  auction?: AuctionRecord;
}

/**
 * Decides and records one bid on an auction whose row the caller has locked (ADR 0055): the proxy rule reads the
 * standing maximums, then each bid it places is recorded in order with its bid.placed (automatic ones for the bidder
 * whose maximum answered), and the caller's maximum is stored. Events never carry a maximum.
 */
export async function placeLocked(
  auction: AuctionRecord,
  bidder: { id: string; name: string },
  attempt: { amount: number; max_amount: number | null },
  now: Date,
  antiSnipingMinutes: number,
  manager: EntityManager,
): Promise<PlacedBid> {
  let standing = await readStanding(manager, auction.listing_id, bidder.id);
  // The leading maximum is never below the price; when it is, bids came without maximums (a previous release).
  if (auction.current_bid !== null && (standing.leader?.max_amount ?? 0) < auction.current_bid) {
    await repairMaximums(manager, auction.listing_id);
    standing = await readStanding(manager, auction.listing_id, bidder.id);
  }
  const decision = decideProxyBid(auction, standing, { bidder_id: bidder.id, ...attempt }, now, antiSnipingMinutes);
  if (!decision.accepted) return { decision, bid: null, recorded: [], max_amount: null };
  const recorded: BidRecord[] = [];
  // Bids are stamped from the database's clock read under the lock, as a batch's are (ADR 0065).
  const [{ clock }]: { clock: string }[] = await manager.query(`SELECT ${DATABASE_CLOCK} AS clock`);
  for (const [index, placed] of decision.bids.entries()) {
    const payload: EventPayloads['bid.placed'] = {
      bid_id: randomUUID(),
      // The stored id, never the caller's spelling of it: live viewers match ids as text.
      listing_id: auction.listing_id,
      bidder_id: placed.bidder_id,
      bidder_name: placed.bidder_id === bidder.id ? bidder.name : (standing.names.get(placed.bidder_id) ?? UNKNOWN_BIDDER),
      amount: placed.amount,
      current_bid: placed.amount,
      bid_count: auction.bid_count + index + 1,
      reserve_met: auction.reserve_price === null || placed.amount >= auction.reserve_price,
      expires_at: decision.expires_at?.toISOString() ?? null,
      // Soft close moved the end once, with the first bid of the decision (D9).
      extended: decision.extended && index === 0,
      seller_id: auction.seller_id,
      listing_title: auction.title,
      previous_leader_id: placed.previous_leader_id,
      price_version: auction.price_version + index + 1,
      automatic: placed.automatic,
      created_at: stampAfter(clock, index + 1),
    };
    checkEventPayload('bid.placed', payload);
    const eventId = randomUUID();
    const { sender, signature } = signEvent(manager, { id: eventId, name: 'bid.placed', occurred_at: payload.created_at, payload });
    const [bid]: BidRecord[] = await manager.query(RECORD_BID_SQL, [
      payload.bid_id,
      auction.listing_id,
      placed.bidder_id,
      placed.amount,
      payload.bid_count,
      decision.expires_at,
      eventId,
      JSON.stringify(payload),
      currentRequestId(),
      currentTraceparent(),
      placed.automatic,
      clockPlus(clock, index + 1),
      sender,
      signature,
    ]);
    recorded.push(bid);
  }
  const maximum = decision.caller_maximum;
  if (maximum.raised || maximum.proxy !== (standing.caller?.proxy ?? false) || !standing.caller) await saveMaximum(manager, auction.listing_id, bidder, maximum);
  const mine = recorded.filter((bid) => bid.bidder_id === bidder.id);
  const bid = mine.find((b) => !b.automatic) ?? mine[0] ?? (await leadingBidOf(auction.listing_id, bidder.id, manager));
  const after: AuctionRecord = {
    ...auction,
    current_bid: decision.current_bid,
    bid_count: decision.bid_count,
    expires_at: decision.expires_at,
    price_version: auction.price_version + recorded.length,
  };
  return { decision, bid, recorded, price_version: after.price_version, max_amount: maximum.proxy ? maximum.max_amount : null, auction: after };
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

async function leadingBidOf(listingId: string, bidderId: string, manager: EntityManager): Promise<BidRecord | null> {
  return (await leadingBidsOf(listingId, [bidderId], manager)).get(bidderId) ?? null;
}
