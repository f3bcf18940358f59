import type { BidKind, BidStatus, EventPayloads } from '@market/contracts';
import type { AuctionState, ListingStatus, ProxyBidDecision } from '@market/domain';

// The rows bidding-service reads and writes, and what placing a bid answers: plain types and column lists that every
// repository of the service shares, so none of them imports another for its types.

/** An auction row as stored; money as numbers (bigint cast, always whole dollars). */
export interface AuctionRecord extends AuctionState {
  listing_id: string;
  title: string;
  website_url: string | null;
  buy_now_price: number | null;
  closed_at: Date | null;
  winning_bid_id: string | null;
  /** Grows with every bid and every repricing (ADR 0038). */
  price_version: number;
}

export interface BidRecord {
  id: string;
  listing_id: string;
  bidder_id: string;
  kind: BidKind;
  amount: number;
  status: BidStatus;
  /** Placed by the system for a bidder's maximum (ADR 0055). */
  automatic: boolean;
  created_at: Date;
}

/** A row of the My Bids tab before names are added. */
export interface UserBidRecord extends BidRecord {
  listing_title: string;
  current_bid: number | null;
  role: 'buyer' | 'seller';
  is_winning: boolean;
  /** The row's bidder holds the listing's leading or accepted bid (ADR 0060). */
  leading: boolean;
  /** The bidder's newest bid (or offer) on the listing: an older one was superseded by their own later one (ADR 0060). */
  latest: boolean;
  /** The bidder's maximum, on the actor's own rows only and only when they set one (ADR 0055); null otherwise. */
  max_amount: number | null;
}

export const AUCTION_COLUMNS = `listing_id, seller_id, title, website_url, listing_type, auction_type, status, starting_price::float8 AS starting_price,
  reserve_price::float8 AS reserve_price, buy_now_price::float8 AS buy_now_price, current_bid::float8 AS current_bid, bid_count, expires_at,
  closed_at, winning_bid_id, price_version`;

/** The sale terms listing events (and listings.sale_terms, ADR 0036) carry. */
export type ListingTerms = Pick<
  EventPayloads['listing.updated'],
  'listing_id' | 'seller_id' | 'title' | 'website_url' | 'status' | 'listing_type' | 'auction_type' | 'starting_price' | 'reserve_price' | 'buy_now_price' | 'expires_at' | 'updated_at'
>;

/** What a listing event left: the sale's status and end, for the close job. */
export interface AppliedTerms {
  status: ListingStatus;
  expires_at: Date | null;
}

export const BID_COLUMNS = 'id, listing_id, bidder_id, kind, amount::float8 AS amount, status, automatic, created_at';

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
