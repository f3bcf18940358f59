import { LISTING_EXCERPT_READ } from '@market/domain';
import type { ListingRecord } from './listings.repository';

/**
 * A timestamptz column as its card shows it, an ISO string (`Date#toISOString`): PostgreSQL writes the UTC time with
 * its milliseconds cut, as pg's Date keeps them, so a page's dates are neither parsed into Dates nor formatted back.
 */
const isoUtc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`;

/**
 * What a browse card reads of a listing (ADR 0082): the description only as far as its excerpt looks (one character
 * past, so a longer one is known to be cut), the first screenshot, the reserve only to say whether it is met, the dates
 * as the card's strings: two Dates a row, and the parse that made them, are work a page never needed (ADR 0082; the
 * gain measured within the noise of a loaded machine, the pages' rows being most of what outlives a scavenge).
 */
export const CARD_COLUMNS = `id, title, left(description, ${LISTING_EXCERPT_READ + 1}) AS description, category, listing_type, status,
  featured, screenshots[1:1] AS screenshots, (ownership_verified_at IS NOT NULL AND ownership_verified_url = website_url) AS ownership_verified,
  monthly_revenue::float8 AS monthly_revenue, monthly_traffic::float8 AS monthly_traffic, starting_price::float8 AS starting_price,
  reserve_price::float8 AS reserve_price, buy_now_price::float8 AS buy_now_price, current_bid::float8 AS current_bid, bid_count,
  price_version, ${isoUtc('expires_at')}, ${isoUtc('created_at')}`;

/** A listing's card columns (CARD_COLUMNS: dates as ISO strings); a whole ListingRecord (dates as Dates) is one too. */
export type CardRecord = Pick<ListingRecord, 'id' | 'title' | 'description' | 'category' | 'listing_type' | 'status' | 'featured' |
  'screenshots' | 'ownership_verified' | 'monthly_revenue' | 'monthly_traffic' | 'starting_price' | 'reserve_price' | 'buy_now_price' |
  'current_bid' | 'bid_count' | 'price_version'> & { expires_at: Date | string | null; created_at: Date | string };
