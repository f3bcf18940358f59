/**
 * Websocket messages on /ws/listings/{id} (D21), one typed map shared by the gateway and the web. Every gateway
 * replica builds them from bidding and listing events; none carries the reserve amount (D7).
 */
export interface LiveEvents {
  new_bid: {
    listing_id: string;
    bid: { id: string; bidder_name: string; amount: number; created_at: string };
    current_bid: number;
    bid_count: number;
    reserve_met: boolean;
    expires_at: string | null;
    /** The auction's price version after the bid (ADR 0038); absent when the event predates it. */
    price_version?: number;
  };
  /** Bids left the auction without a sale (ADR 0038): the price, count and reserve state as they now stand. */
  bids_repriced: {
    listing_id: string;
    current_bid: number | null;
    bid_count: number;
    reserve_met: boolean;
    price_version: number;
  };
  /** Soft close (D9) moved the end. */
  auction_extended: { listing_id: string; expires_at: string };
  listing_sold: { listing_id: string; amount: number; sold_at: string };
  /** Status, featured flag, end or public sale terms changed (the reserve is never sent). */
  listing_updated: {
    listing_id: string;
    status: string;
    featured: boolean | null;
    expires_at: string | null;
    buy_now_price: number | null;
  };
}
export type LiveEventType = keyof LiveEvents;

/** One websocket frame: `{type, data}` as JSON text. */
export type LiveMessage = { [K in LiveEventType]: { type: K; data: LiveEvents[K] } }[LiveEventType];

/** The websocket path of one listing's live feed. */
export function liveListingPath(listingId: string): string {
  return `/ws/listings/${listingId}`;
}
