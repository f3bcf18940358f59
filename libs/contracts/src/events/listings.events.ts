import { z } from 'zod';
import { id, text, time, dollars, count } from './fields.schemas';

/** The most saved-search matches one saved_search.matched carries: an event stays far below NATS's 1 MB. */
export const SAVED_SEARCH_MATCHES_PER_EVENT = 200;

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
  /**
   * A listing that went live matched buyers' saved searches with alerts on (ADR 0074): each search once, up to
   * SAVED_SEARCH_MATCHES_PER_EVENT of them per event (a listing that matches more is announced in several).
   * notifications-service gathers them into at most one email per search a day, with each search's signed unsubscribe token.
   */
  'saved_search.matched': z.object({
    listing_id: id,
    listing_title: text,
    listing_type: z.enum(['auction', 'fixed']),
    category: text,
    price: dollars,
    matched_at: time,
    matches: z
      .array(z.object({ search_id: id, user_id: id, search_name: text, unsubscribe_token: text }))
      .min(1)
      .max(SAVED_SEARCH_MATCHES_PER_EVENT),
  }),
  /**
   * A watched auction ends within 24 hours (ADR 0074): one per watcher and listing, from listings-service's sweep, for
   * watchers who watched it before that day began and have not turned these reminders off.
   */
  'watch.ending_soon': z.object({
    user_id: id,
    listing_id: id,
    listing_title: text,
    expires_at: time,
    current_price: dollars,
    bid_count: count,
    unsubscribe_token: text,
  }),
};
