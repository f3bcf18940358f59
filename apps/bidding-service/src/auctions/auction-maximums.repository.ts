import type { EntityManager } from 'typeorm';
import type { ProxyMaximum } from '@market/domain';

/**
 * The ORDER BY that picks an auction's leading bid, `bid` the alias of bids and `max` of its bidder's auction_maximums
 * row (ADR 0055): the highest amount, then the higher maximum, then the one set earlier (so an automatic bid answering an
 * equal typed one wins, as the rule says), then the earlier bid (for bids without a maximum row).
 */
export function leadingBidOrder(bid: string, max: string): string {
  return `${bid}.amount DESC, ${max}.max_amount DESC NULLS LAST, ${max}.set_at ASC NULLS LAST, ${bid}.created_at ASC`;
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
