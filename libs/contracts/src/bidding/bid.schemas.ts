import { z } from 'zod';
import { MAX_DOLLARS } from '@market/domain';

/**
 * POST /api/bids (SPEC §7): whole dollars only. On an auction it is a bid (D6); on a fixed-price listing it is an
 * offer (D5). The service applies the rules.
 */
export const PlaceBidSchema = z
  .object({
    listing_id: z.uuid({ message: 'Not a valid listing id' }),
    amount: z
      .number({ message: 'Bid amount must be a number' })
      .int('Bid amount must be whole dollars')
      .min(1, 'Bid amount must be at least $1')
      .max(MAX_DOLLARS, 'Bid amount is too large'),
  })
  .strict();
export type PlaceBid = z.infer<typeof PlaceBidSchema>;

/** A bid in a listing's history (SPEC §3 Bid detail). */
export interface BidDto {
  id: string;
  bidder_name: string;
  amount: number;
  created_at: string;
}

/** POST /api/bids answer: the accepted bid (or offer) and the auction as it now stands. */
export interface PlaceBidResponse {
  message: string;
  /** 'bid' on an auction; 'offer' on a fixed-price listing (offers are private and leave the price alone). */
  kind: BidKind;
  bid: BidDto;
  current_bid: number | null;
  bid_count: number;
  expires_at: string | null;
  extended: boolean;
}

/** GET /api/listings/{id}/bids: the latest 10 bids (SPEC §9); offers are not public. */
export interface BidHistoryResponse {
  bids: BidDto[];
}

/** A bid on an auction, an offer on a fixed price (D5), or the winning record of a buy-now purchase (D4). */
export type BidKind = 'bid' | 'offer' | 'buy_now';
export type BidStatus = 'pending' | 'accepted' | 'rejected';

/** POST /api/bids/{id}/action (SPEC §7): the seller decides a pending bid or offer. */
export const BidActionSchema = z
  .object({ action: z.enum(['accept', 'reject'], { message: "Action must be 'accept' or 'reject'" }) })
  .strict();
export type BidAction = z.infer<typeof BidActionSchema>;

/** POST /api/bids/{id}/action answer. */
export interface BidActionResponse {
  success: true;
  message: string;
  bid: { id: string; status: BidStatus };
}

/** A row of GET /api/user/bids (SPEC §3 Bid row): the actor's own bids (buyer) and bids on their listings (seller). */
export interface UserBidRow {
  id: string;
  listing_id: string;
  listing_title: string;
  current_bid: number | null;
  role: 'buyer' | 'seller';
  kind: BidKind;
  bidder_id: string;
  bidder_username: string;
  bidder_verified: boolean;
  amount: number;
  status: BidStatus;
  /** The bid was accepted, or leads an auction that is live or ended unsold (the seller may still accept it). */
  is_winning: boolean;
  created_at: string;
}

/** GET /api/user/bids: newest first (up to 500). */
export interface UserBidsResponse {
  bids: UserBidRow[];
}

/** bidding.buy_now answer (services only): the purchase, recorded as the sale's winning bid. */
export interface BuyNowSale {
  bid_id: string;
  listing_id: string;
  amount: number;
}
