import { defineRpc } from '../rpc';
import { EmptyRequestSchema, IdRequestSchema } from '../common.schemas';
import { BuyingHoldSchema, BuyingHoldsResponseSchema } from './buying-hold.schemas';
import {
  BidActionRequestSchema,
  BidActionResponseSchema,
  BidHistoryResponseSchema,
  BuyNowRequestSchema,
  BuyNowSaleSchema,
  ListingIdRequestSchema,
  MyStandingSchema,
  PlaceBidResponseSchema,
  PlaceBidSchema,
  UserBidsResponseSchema,
} from './bid.schemas';

/** bidding-service's request subjects. */
export const BIDDING_RPC = {
  placeBid: defineRpc('bidding.place_bid', PlaceBidSchema, PlaceBidResponseSchema),
  history: defineRpc('bidding.history', ListingIdRequestSchema, BidHistoryResponseSchema),
  /** The seller accepts or rejects a pending bid or offer. */
  bidAction: defineRpc('bidding.bid_action', BidActionRequestSchema, BidActionResponseSchema),
  /** The actor's bids as buyer and as seller (the My Bids tab). */
  userBids: defineRpc('bidding.user_bids', EmptyRequestSchema, UserBidsResponseSchema),
  /** The actor's own standing on one listing (ADR 0060): the bid form's cheap "where am I" read. */
  myStanding: defineRpc('bidding.my_standing', ListingIdRequestSchema, MyStandingSchema),
  /** A buyer buys a listing at its buy-now (or fixed) price below the direct-purchase limit (D4); billing asks. */
  buyNow: defineRpc('bidding.buy_now', BuyNowRequestSchema, BuyNowSaleSchema, { internal: true }),
  /** A real admin lifts a member's buying hold after unpaid purchases (ADR 0043). */
  liftBuyingHold: defineRpc('bidding.admin.lift_buying_hold', IdRequestSchema, BuyingHoldSchema),
  /** The members whose buying is on hold now (ADR 0043), for the admin Users tab. */
  buyingHolds: defineRpc('bidding.admin.buying_holds', EmptyRequestSchema, BuyingHoldsResponseSchema),
};
