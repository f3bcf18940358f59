import { LISTING_EXCERPT_READ } from '@market/domain';
import type { ListingRecord } from './listings.repository';

/**
 * What a browse card reads of a listing (ADR 0082): the description only as far as its excerpt looks (one character
 * past, so a longer one is known to be cut), the first screenshot, the reserve only to say whether it is met.
 */
export const CARD_COLUMNS = `id, title, left(description, ${LISTING_EXCERPT_READ + 1}) AS description, category, listing_type, status,
  featured, screenshots[1:1] AS screenshots, (ownership_verified_at IS NOT NULL AND ownership_verified_url = website_url) AS ownership_verified,
  monthly_revenue::float8 AS monthly_revenue, monthly_traffic::float8 AS monthly_traffic, starting_price::float8 AS starting_price,
  reserve_price::float8 AS reserve_price, buy_now_price::float8 AS buy_now_price, current_bid::float8 AS current_bid, bid_count,
  price_version, revenue_verified, traffic_verified, expires_at, created_at`;

/** A listing's card columns (CARD_COLUMNS); a whole ListingRecord is one too. */
export type CardRecord = Pick<ListingRecord, 'id' | 'title' | 'description' | 'category' | 'listing_type' | 'status' | 'featured' |
  'screenshots' | 'ownership_verified' | 'monthly_revenue' | 'monthly_traffic' | 'starting_price' | 'reserve_price' | 'buy_now_price' |
  'current_bid' | 'bid_count' | 'price_version' | 'revenue_verified' | 'traffic_verified' | 'expires_at' | 'created_at'>;
