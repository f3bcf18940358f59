import type { EntityManager } from 'typeorm';
import { latestPricePerListing, type PriceUpdate } from '@market/domain';

/** What auction.repriced says of a listing (ADR 0038). */
export interface RepricedListing {
  listing_id: string;
  current_bid: number | null;
  bid_count: number;
  price_version: number;
}

/** Writes a batch's newest price per listing (ListingsRepository.applyBids). */
export async function applyBidPrices(bids: readonly PriceUpdate[], manager: EntityManager): Promise<void> {
  const latest = latestPricePerListing(bids);
  if (latest.length === 0) return;
  const ids = latest.map((bid) => bid.listing_id);
  // One update for all (ADR 0062): a statement per listing was most of this consumer's round trips in a storm over
  // many auctions. Several rows are locked in listing id order first, so two consumers cannot deadlock.
  if (ids.length > 1) await manager.query('SELECT id FROM listings WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [ids]);
  await manager.query(
    `UPDATE listings l SET current_bid = u.current_bid, bid_count = u.bid_count, price_version = u.price_version,
       expires_at = CASE WHEN u.expires_at IS NULL THEN l.expires_at ELSE GREATEST(l.expires_at, u.expires_at) END, updated_at = now()
     FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::timestamptz[], $5::int[]) AS u(id, current_bid, bid_count, expires_at, price_version)
     WHERE l.id = u.id AND l.price_version < u.price_version AND l.status NOT IN ('sold', 'cancelled')`,
    [ids, latest.map((bid) => bid.current_bid), latest.map((bid) => bid.bid_count), latest.map((bid) => bid.expires_at), latest.map((bid) => bid.price_version)],
  );
}

/** Writes a repriced listing's price (ListingsRepository.applyRepriced). */
export async function applyRepricedPrice(repriced: RepricedListing, manager: EntityManager): Promise<void> {
  await manager.query(
    `UPDATE listings SET current_bid = $2, bid_count = $3, price_version = $4, updated_at = now()
     WHERE id = $1 AND price_version < $4 AND status NOT IN ('sold', 'cancelled')`,
    [repriced.listing_id, repriced.current_bid, repriced.bid_count, repriced.price_version],
  );
}
