import { z } from 'zod';
import { id, text, time, dollars } from './fields.schemas';

const saleTerms = {
  listing_id: id,
  seller_id: id,
  title: text,
  website_url: text.nullable(),
  listing_type: z.enum(['auction', 'fixed']),
  auction_type: z.enum(['auto', 'manual']),
  starting_price: dollars,
  /** Sealed for bidding-service (D7, ADR 0066): absent for every other consumer. */
  reserve_price: dollars.nullable().optional(),
  buy_now_price: dollars.nullable(),
  /** The listing row's version: consumers of several listing events apply only what is newer than they have. */
  updated_at: time,
};

/** Listing events, written by listings-service: a listing went live, changed, was deleted or cancelled. */
export const LISTING_EVENTS = {
  /** A listing went live (D16): what bidding needs to run the auction (reserve included: internal only, D7). */
  'listing.approved': z.object({ ...saleTerms, approved_at: time, expires_at: time }),
  /**
   * A listing's status, featured flag or sale terms changed. Internal: it carries the reserve amount for the bidding
   * service, so whatever relays it to browsers (D21 listing_updated) must build its own message without it (D7).
   */
  'listing.updated': z.object({ ...saleTerms, status: text, featured: z.boolean(), expires_at: time.nullable() }),
  'listing.deleted': z.object({ listing_id: id, seller_id: id, deleted_by: id }),
  /**
   * An admin cancelled a listing for good, with a reason (ADR 0042): bidding ends its sale and rejects its pending bids,
   * then says so in auction.cancelled, which names the bidders to tell.
   */
  'listing.cancelled': z.object({ listing_id: id, seller_id: id, listing_title: text, reason: text, cancelled_by: id, cancelled_at: time }),
};
