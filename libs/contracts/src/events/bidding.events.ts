import { z } from 'zod';
import { id, text, time, dollars, count } from './fields.schemas';

/** Bidding events, written by bidding-service: bids and offers, their outcomes and the ends of sales. */
export const BIDDING_EVENTS = {
  /** A bid was accepted into an auction (D6, D9): the new price, count and end, for listings and live viewers. */
  'bid.placed': z.object({
    bid_id: id,
    listing_id: id,
    bidder_id: id,
    /** The bidder's username when the bid was placed, for live viewers (D21). */
    bidder_name: text,
    amount: dollars,
    current_bid: dollars,
    bid_count: count,
    /** Whether the current bid meets the reserve (true when there is none); never the reserve amount (D7). */
    reserve_met: z.boolean(),
    expires_at: time.nullable(),
    extended: z.boolean(),
    created_at: time,
    /** Who is told of the new bid (D19): the seller, and the bidder who led before it when that was someone else. */
    seller_id: id,
    listing_title: text,
    previous_leader_id: id.nullable(),
    /** The auction's price version after this bid (ADR 0038): listings and viewers keep the newest. Absent from older events (then bid_count was it). */
    price_version: count.optional(),
    /** Placed by the system for the bidder's maximum (ADR 0055); a maximum itself never travels in an event. Absent from older events. */
    automatic: z.boolean().optional(),
  }),
  /**
   * Bids left an auction without a sale (ADR 0038): the seller or an admin rejected a pending bid, or its bidder was
   * suspended or deleted. The public price, count and reserve state recomputed from the bids still standing; versioned
   * with bid.placed so an older state never overwrites a newer one.
   */
  'auction.repriced': z.object({
    listing_id: id,
    current_bid: dollars.nullable(),
    bid_count: count,
    /** Whether the current bid meets the reserve (true when there is none); never the reserve amount (D7). */
    reserve_met: z.boolean(),
    price_version: count,
    reason: z.enum(['bid_rejected', 'bidder_removed']),
    at: time,
  }),
  /** An offer on a fixed-price listing (D5): private between buyer and seller, it changes no public price. */
  'offer.made': z.object({
    bid_id: id,
    listing_id: id,
    seller_id: id,
    bidder_id: id,
    amount: dollars,
    created_at: time,
    /** For the seller's email; events written before it existed lack it (and are not mailed). */
    listing_title: text.optional(),
  }),
  /**
   * A bid or offer won the sale (D8): at the auction's end (`auction_win`), or accepted by the seller while the listing
   * was live (`bid_accepted`) or within the 7 days after it ended unsold (`accepted_after_close`), or a buy-now
   * purchase (`buy_now`, D4). Exactly one per listing: billing invoices the buyer from this event (D10).
   */
  'bid.accepted': z.object({
    bid_id: id,
    listing_id: id,
    listing_title: text,
    website_url: text.nullable(),
    seller_id: id,
    buyer_id: id,
    amount: dollars,
    kind: z.enum(['bid', 'offer', 'buy_now']),
    sale: z.enum(['auction_win', 'bid_accepted', 'accepted_after_close', 'buy_now']),
    accepted_at: time,
  }),
  /** The seller turned a pending bid or offer down. */
  'bid.rejected': z.object({
    bid_id: id,
    listing_id: id,
    bidder_id: id,
    amount: dollars,
    /** For the bidder's email; events written before they existed lack them (and are not mailed). */
    listing_title: text.optional(),
    kind: z.enum(['bid', 'offer', 'buy_now']).optional(),
  }),
  /**
   * A listing's sale ended, once: sold (a bid won, at the end or accepted earlier) or expired (no bids, reserve not met,
   * or a manual auction or fixed listing that ended without an accepted bid; its pending bids stay open 7 days, D8).
   * A sold outcome carries what billing needs; the invoice itself follows bid.accepted.
   */
  'auction.closed': z.object({
    listing_id: id,
    listing_title: text,
    seller_id: id,
    outcome: z.enum(['sold', 'expired']),
    reason: z.enum(['won', 'accepted', 'bought', 'no_bids', 'reserve_not_met', 'manual']),
    winning_bid_id: id.nullable(),
    buyer_id: id.nullable(),
    amount: dollars.nullable(),
    closed_at: time,
    /** Bids still open when an unsold sale ended: the seller may accept one within 7 days (D8). */
    pending_bids: count,
  }),
  /**
   * A cancelled listing's sale ended here (ADR 0042): everyone who bid, to be told why, in chunks of at most 500 so no
   * message outgrows NATS's payload limit; the first chunk also tells the seller.
   */
  'auction.cancelled': z.object({
    listing_id: id,
    listing_title: text,
    seller_id: id,
    reason: text,
    bidder_ids: z.array(id).max(500),
    notify_seller: z.boolean(),
    cancelled_at: time,
  }),
};
