import { z } from 'zod';
import { BID_AMOUNT_WORDS, MAX_BELOW_BID, MAX_DOLLARS } from '@market/domain';
import { IsoDateTimeSchema, UuidSchema } from '../common.schemas';

/**
 * POST /api/bids (SPEC §7): whole dollars only. On an auction it is a bid (D6); on a fixed-price listing it is an
 * offer (D5). The service applies the rules.
 */
export const PlaceBidSchema = z
  .object({
    listing_id: z.uuid({ message: 'Not a valid listing id' }),
    amount: z
      .number({ message: BID_AMOUNT_WORDS.amount.number })
      .int(BID_AMOUNT_WORDS.amount.whole)
      .min(1, BID_AMOUNT_WORDS.amount.min)
      .max(MAX_DOLLARS, BID_AMOUNT_WORDS.amount.max),
    /**
     * Proxy bidding (ADR 0055): the most the system may bid for this bidder on an automatic auction, whole dollars, at
     * least `amount`. Never shown to anyone but its owner.
     */
    max_amount: z
      .number({ message: BID_AMOUNT_WORDS.max_amount.number })
      .int(BID_AMOUNT_WORDS.max_amount.whole)
      .min(1, BID_AMOUNT_WORDS.max_amount.min)
      .max(MAX_DOLLARS, BID_AMOUNT_WORDS.max_amount.max)
      .optional(),
  })
  .strict()
  .refine((bid) => bid.max_amount === undefined || bid.max_amount >= bid.amount, {
    message: MAX_BELOW_BID,
    path: ['max_amount'],
  }).meta({ id: 'PlaceBidRequest' });
export type PlaceBid = z.infer<typeof PlaceBidSchema>;

/** A bid on an auction, an offer on a fixed price (D5), or the winning record of a buy-now purchase (D4). */
export const BidKindSchema = z.enum(['bid', 'offer', 'buy_now']);
export type BidKind = z.infer<typeof BidKindSchema>;
export const BidStatusSchema = z.enum(['pending', 'accepted', 'rejected']);
export type BidStatus = z.infer<typeof BidStatusSchema>;

/** A bid in a listing's history (SPEC §3 Bid detail). */
export const BidSchema = z.strictObject({
  id: z.uuid(),
  bidder_name: z.string(),
  amount: z.number().int(),
  /** Placed by the system for a bidder's maximum (ADR 0055), not by the bidder at that moment. */
  automatic: z.boolean(),
  created_at: IsoDateTimeSchema,
}).meta({ id: 'Bid' });
export type BidDto = z.infer<typeof BidSchema>;

/** POST /api/bids answer: the accepted bid (or offer) and the auction as it now stands. */
export const PlaceBidResponseSchema = z.strictObject({
  message: z.string(),
  /** 'bid' on an auction; 'offer' on a fixed-price listing (offers are private and leave the price alone). */
  kind: BidKindSchema,
  bid: BidSchema,
  current_bid: z.number().int().nullable(),
  bid_count: z.number().int(),
  expires_at: IsoDateTimeSchema.nullable(),
  extended: z.boolean(),
  /** The auction's price version after a bid (ADR 0038), to order it against live news; absent for an offer. */
  price_version: z.number().int().optional(),
  /** Whether the caller leads once the bid is decided: false when an earlier, higher maximum outbid it at once. */
  leading: z.boolean(),
  /** The caller's own maximum on this auction after the bid (ADR 0055), or null without one; only its owner sees it. */
  max_amount: z.number().int().nullable(),
}).meta({ id: 'PlaceBidResponse' });
export type PlaceBidResponse = z.infer<typeof PlaceBidResponseSchema>;

/** GET /api/listings/{id}/bids: the latest 10 bids (SPEC §9); offers are not public. */
export const BidHistoryResponseSchema = z.strictObject({ bids: z.array(BidSchema) }).meta({ id: 'BidHistoryResponse' });
export type BidHistoryResponse = z.infer<typeof BidHistoryResponseSchema>;

/** POST /api/bids/{id}/action (SPEC §7): the seller decides a pending bid or offer. */
export const BidActionSchema = z
  .object({ action: z.enum(['accept', 'reject'], { message: "Action must be 'accept' or 'reject'" }) })
  .strict().meta({ id: 'BidActionRequest' });
export type BidAction = z.infer<typeof BidActionSchema>;

/** bidding.bid_action: the bid the path names and what the seller decided. */
export const BidActionRequestSchema = BidActionSchema.extend({ bid_id: UuidSchema });

/** POST /api/bids/{id}/action answer. */
export const BidActionResponseSchema = z.strictObject({
  success: z.literal(true),
  message: z.string(),
  bid: z.strictObject({ id: z.uuid(), status: BidStatusSchema }),
}).meta({ id: 'BidActionResponse' });
export type BidActionResponse = z.infer<typeof BidActionResponseSchema>;

/** A row of GET /api/user/bids (SPEC §3 Bid row): the actor's own bids (buyer) and bids on their listings (seller). */
export const UserBidRowSchema = z.strictObject({
  id: z.uuid(),
  listing_id: z.uuid(),
  listing_title: z.string(),
  current_bid: z.number().int().nullable(),
  role: z.enum(['buyer', 'seller']),
  kind: BidKindSchema,
  bidder_id: z.uuid(),
  bidder_username: z.string(),
  bidder_verified: z.boolean(),
  amount: z.number().int(),
  status: BidStatusSchema,
  /** The bid was accepted, or leads an auction that is live or ended unsold (the seller may still accept it). */
  is_winning: z.boolean(),
  /**
   * The row's bidder holds this listing's leading bid, or its accepted one, now (ADR 0060): where they stand on the
   * listing, which an older bid of theirs that is no longer `is_winning` does not tell alone.
   */
  leading: z.boolean(),
  /** The bidder's newest bid (or offer) on this listing; an older one was superseded by their own later one (ADR 0060). */
  latest: z.boolean(),
  /** Placed by the system for the bidder's maximum (ADR 0055). */
  automatic: z.boolean(),
  /** The bidder's current maximum on this auction: only on the actor's own rows (role buyer), null otherwise (ADR 0055). */
  max_amount: z.number().int().nullable(),
  created_at: IsoDateTimeSchema,
});
export type UserBidRow = z.infer<typeof UserBidRowSchema>;

/** GET /api/user/bids: newest first (up to 500). */
export const UserBidsResponseSchema = z.strictObject({ bids: z.array(UserBidRowSchema) }).meta({ id: 'UserBidsResponse' });
export type UserBidsResponse = z.infer<typeof UserBidsResponseSchema>;

/**
 * GET /api/listings/{id}/my-standing (bidding.my_standing): where the caller stands on one listing, and nothing of
 * anyone else (ADR 0060). A listing the caller never bid on, or one bidding has not heard of, answers "no stake".
 */
export const MyStandingSchema = z.strictObject({
  listing_id: z.uuid(),
  /** The caller has bid on this listing (a stake): only then can another bid change the rest of this answer. */
  has_bid: z.boolean(),
  /** The caller holds the listing's leading bid, or its accepted one, now (the same rule as My Bids' `leading`). */
  leading: z.boolean(),
  /** The caller's own maximum when they set one (ADR 0055), else null; never another bidder's. */
  max_amount: z.number().int().nullable(),
  /** The caller set a maximum and no longer leads: another bidder passed it. */
  max_passed: z.boolean(),
}).meta({ id: 'MyStanding' });
export type MyStanding = z.infer<typeof MyStandingSchema>;

/** bidding.buy_now (services only): the listing a buyer buys at its buy-now price. */
export const BuyNowRequestSchema = z.object({ listing_id: UuidSchema }).strict();

/** bidding.buy_now answer (services only): the purchase, recorded as the sale's winning bid. */
export const BuyNowSaleSchema = z.strictObject({ bid_id: z.uuid(), listing_id: z.uuid(), amount: z.number().int() });
export type BuyNowSale = z.infer<typeof BuyNowSaleSchema>;

/** bidding.history: a listing's public bid history. */
export const ListingIdRequestSchema = z.object({ listing_id: UuidSchema }).strict();
