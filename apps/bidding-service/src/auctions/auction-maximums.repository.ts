import type { EntityManager } from 'typeorm';
import type { ProxyMaximum, ProxyStanding } from '@market/domain';

// A maximum counts only while its bidder has a standing bid in the auction: a bidder whose bids all left (rejected,
// lapsed) is out of the race whatever row is left behind (ADR 0055).
const STANDS = `EXISTS (SELECT 1 FROM bids b WHERE b.listing_id = m.listing_id AND b.bidder_id = m.bidder_id AND b.status = 'pending' AND b.kind = 'bid')`;
const MAXIMUM_COLUMNS = 'm.bidder_id, m.max_amount::float8 AS max_amount, m.set_at, m.proxy, m.bidder_name';

/**
 * What the auction's lock reads before a bid (ADR 0055): the two highest standing maximums (the earlier first on a tie)
 * and the caller's own, each marked. Params: listing id, caller id. npm run bench:bids runs it in its ceiling too.
 */
export const STANDING_SQL = `
  (SELECT ${MAXIMUM_COLUMNS}, true AS ranked FROM auction_maximums m WHERE m.listing_id = $1 AND ${STANDS} ORDER BY m.max_amount DESC, m.set_at ASC LIMIT 2)
  UNION ALL
  (SELECT ${MAXIMUM_COLUMNS}, false AS ranked FROM auction_maximums m WHERE m.listing_id = $1 AND m.bidder_id = $2 AND ${STANDS})`;

/**
 * Stores the caller's maximum after a bid: its set time (the database clock, so replicas agree) moves only when it rose.
 * Params: listing id, bidder id, maximum, proxy, bidder name, rose.
 */
export const SAVE_MAXIMUM_SQL = `
  INSERT INTO auction_maximums (listing_id, bidder_id, max_amount, proxy, bidder_name, set_at) VALUES ($1, $2, $3, $4, $5, clock_timestamp())
  ON CONFLICT (listing_id, bidder_id) DO UPDATE SET max_amount = EXCLUDED.max_amount, proxy = EXCLUDED.proxy, bidder_name = EXCLUDED.bidder_name,
    set_at = CASE WHEN $6 THEN EXCLUDED.set_at ELSE auction_maximums.set_at END, updated_at = now()`;

/**
 * The ORDER BY that picks an auction's leading bid, `bid` the alias of bids and `max` of its bidder's auction_maximums
 * row (ADR 0055): the highest amount, then the higher maximum, then the one set earlier (so an automatic bid answering an
 * equal typed one wins, as the rule says), then the earlier bid (for bids without a maximum row).
 */
export function leadingBidOrder(bid: string, max: string): string {
  return `${bid}.amount DESC, ${max}.max_amount DESC NULLS LAST, ${max}.set_at ASC NULLS LAST, ${bid}.created_at ASC`;
}

type StandingRow = ProxyMaximum & { proxy: boolean; bidder_name: string | null; ranked: boolean };

/** The standing the proxy rule decides a bid from, and the leader's username for an automatic bid placed for them. */
export async function readStanding(manager: EntityManager, listingId: string, callerId: string): Promise<ProxyStanding & { names: Map<string, string | null> }> {
  const rows: StandingRow[] = await manager.query(STANDING_SQL, [listingId, callerId]);
  const ranked = rows.filter((row) => row.ranked);
  const own = rows.find((row) => !row.ranked);
  const plain = (row: StandingRow | undefined): ProxyMaximum | null => (row ? { bidder_id: row.bidder_id, max_amount: row.max_amount, set_at: row.set_at } : null);
  return {
    leader: plain(ranked[0]),
    runner_up: plain(ranked[1]),
    caller: own ? { ...plain(own)!, proxy: own.proxy } : null,
    names: new Map(rows.map((row) => [row.bidder_id, row.bidder_name])),
  };
}

/**
 * Gives every standing bidder of an auction a maximum at least their highest standing bid, as the migration did: for
 * bids a previous release placed during a rolling upgrade, found when the standing read is below the price (ADR 0055).
 */
export async function repairMaximums(manager: EntityManager, listingId: string): Promise<void> {
  await manager.query(
    `INSERT INTO auction_maximums (listing_id, bidder_id, max_amount, set_at)
     SELECT DISTINCT ON (bidder_id) listing_id, bidder_id, amount, created_at FROM bids
     WHERE listing_id = $1 AND status = 'pending' AND kind = 'bid' ORDER BY bidder_id, amount DESC, created_at ASC
     ON CONFLICT (listing_id, bidder_id) DO UPDATE SET max_amount = EXCLUDED.max_amount, set_at = EXCLUDED.set_at, updated_at = now()
     WHERE auction_maximums.max_amount < EXCLUDED.max_amount`,
    [listingId],
  );
}

/** Stores the caller's maximum as the proxy rule left it (ADR 0055). */
export async function saveMaximum(
  manager: EntityManager,
  listingId: string,
  bidder: { id: string; name: string },
  maximum: { max_amount: number; raised: boolean; proxy: boolean },
): Promise<void> {
  await manager.query(SAVE_MAXIMUM_SQL, [listingId, bidder.id, maximum.max_amount, maximum.proxy, bidder.name, maximum.raised]);
}

/**
 * After a bidder's bid was rejected or withdrawn (ADR 0038), their maximum falls to their highest bid still standing,
 * set when that bid was, and is no longer one they chose; with no bid standing it goes (ADR 0055): a rejection ends the
 * system's bidding for them in that auction.
 */
export async function resetMaximum(manager: EntityManager, listingId: string, bidderId: string): Promise<void> {
  await manager.query(
    `WITH top AS (
       SELECT amount, created_at FROM bids WHERE listing_id = $1 AND bidder_id = $2 AND status = 'pending' AND kind = 'bid'
       ORDER BY amount DESC, created_at ASC LIMIT 1
     ), gone AS (
       DELETE FROM auction_maximums WHERE listing_id = $1 AND bidder_id = $2 AND NOT EXISTS (SELECT 1 FROM top)
     )
     UPDATE auction_maximums SET max_amount = top.amount, proxy = false, updated_at = now(),
       set_at = CASE WHEN auction_maximums.max_amount = top.amount THEN auction_maximums.set_at ELSE top.created_at END
     FROM top WHERE auction_maximums.listing_id = $1 AND auction_maximums.bidder_id = $2`,
    [listingId, bidderId],
  );
}

/** Every maximum of an auction, for a repricing under its lock (ADR 0055). */
export function maximumsOf(manager: EntityManager, listingId: string): Promise<ProxyMaximum[]> {
  return manager.query('SELECT bidder_id, max_amount::float8 AS max_amount, set_at FROM auction_maximums WHERE listing_id = $1', [listingId]);
}
