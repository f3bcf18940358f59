import { z } from 'zod';
import { LISTING_STATUSES, listingExcerpt } from '@market/domain';
import { IsoDateTimeSchema } from '../common.schemas';
import { BidSchema } from '../bidding/bid.schemas';
import { ListingVerificationSchema } from './verified-figures.schemas';

/** The seller card on a listing (SPEC §3 Seller). rating is null until reviews exist (ADR 0013). */
export const SellerSchema = z.strictObject({
  id: z.uuid(),
  name: z.string().nullable(),
  username: z.string(),
  /** The mean of the seller's visible reviews, one decimal (D23); null before the first. */
  rating: z.number().nullable(),
  review_count: z.number().int(),
  verified: z.boolean(),
  /** Sales paid out through the platform (D23). */
  total_transactions: z.number().int(),
}).meta({ id: 'Seller' });
export type SellerDto = z.infer<typeof SellerSchema>;

/**
 * A listing as the API returns it (SPEC §3 Listing). Money is whole dollars. reserve_price is present only for the
 * seller and admins (D7); everyone else sees has_reserve and reserve_met. screenshots are paths under /api/uploads.
 * seller (the seller card) and bid_history are present on GET /api/listings/{id} only.
 */
export const ListingSchema = z.strictObject({
  id: z.uuid(),
  seller_id: z.uuid(),
  seller: SellerSchema.optional(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  listing_type: z.enum(['auction', 'fixed']),
  auction_type: z.enum(['auto', 'manual']),
  status: z.enum(LISTING_STATUSES),
  featured: z.boolean(),
  screenshots: z.array(z.string()),
  website_url: z.string(),
  monthly_revenue: z.number().int(),
  annual_revenue: z.number().int(),
  monthly_traffic: z.number().int(),
  monthly_expenses: z.number().int(),
  /** Percent, one decimal. */
  profit_margin: z.number(),
  business_age_months: z.number().int(),
  monetization_methods: z.array(z.string()),
  starting_price: z.number().int(),
  current_bid: z.number().int().nullable(),
  buy_now_price: z.number().int().nullable(),
  /** The seller and admins only (D7). */
  reserve_price: z.number().int().nullable().optional(),
  has_reserve: z.boolean(),
  reserve_met: z.boolean(),
  duration_days: z.number().int(),
  approved_at: IsoDateTimeSchema.nullable(),
  expires_at: IsoDateTimeSchema.nullable(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  bid_count: z.number().int(),
  /**
   * The seller proved control of the website address's domain (DNS TXT record or well-known file, ADR 0040); a changed
   * address drops it.
   */
  ownership_verified: z.boolean(),
  /** Revenue verified by Stripe and current (D24, ADR 0084): the badge on cards and the browse filter. */
  revenue_verified: z.boolean(),
  /** Traffic verified by Google Analytics 4 and current (D24, ADR 0084). */
  traffic_verified: z.boolean(),
  /** The verified figures beside the claims, with their months (D24): on GET /api/listings/{id} and admin lists only. */
  verification: ListingVerificationSchema.optional(),
  /**
   * Grows with every change of current_bid, bid_count or reserve_met, down as well as up (ADR 0038): a client keeps the
   * newest state it has seen by it, never by bid_count (a rejected bid lowers the count).
   */
  price_version: z.number().int().optional(),
  /**
   * The latest 10 public bids, newest first (SPEC §3, §9): never offers or buy-now purchases. Left out when the bidding
   * service did not answer in time (ADR 0036); GET /api/listings/{id}/bids has the same list.
   */
  bid_history: z.array(BidSchema).optional(),
  key_metrics: z.string().nullable(),
  growth_opportunities: z.string().nullable(),
  included_assets: z.string().nullable(),
  reason_for_selling: z.string().nullable(),
}).meta({ id: 'Listing' });
export type ListingDto = z.infer<typeof ListingSchema>;

/**
 * A listing as a browse page shows it (ADR 0082): what its card displays and what live bids change, with the start of
 * its description as `excerpt` (listingExcerpt). The whole listing is GET /api/listings/{id}. Never a reserve amount.
 */
export const ListingCardSchema = ListingSchema.pick({
  id: true,
  title: true,
  category: true,
  listing_type: true,
  status: true,
  featured: true,
  monthly_revenue: true,
  monthly_traffic: true,
  starting_price: true,
  current_bid: true,
  buy_now_price: true,
  has_reserve: true,
  reserve_met: true,
  expires_at: true,
  created_at: true,
  bid_count: true,
  price_version: true,
  ownership_verified: true,
  revenue_verified: true,
  traffic_verified: true,
}).extend({
  excerpt: z.string().meta({ description: 'The description as one line, at most 240 characters, ending in "…" when cut' }),
  screenshot: z.string().nullable().meta({ description: 'The first screenshot (a path under /api/uploads), null when there is none' }),
}).meta({ id: 'ListingCard' });
export type ListingCardDto = z.infer<typeof ListingCardSchema>;

/** What a card is made of: the card's fields of a listing, with its whole description and screenshots. */
export type ListingCardSource = Pick<ListingDto, Exclude<keyof ListingCardDto, 'excerpt' | 'screenshot'> | 'description' | 'screenshots'>;

/** The card of a listing: what browse answers for it, from the listing or its card's fields (ADR 0082). */
export function listingCard(listing: ListingCardSource): ListingCardDto {
  return {
    id: listing.id,
    title: listing.title,
    excerpt: listingExcerpt(listing.description),
    category: listing.category,
    listing_type: listing.listing_type,
    status: listing.status,
    featured: listing.featured,
    screenshot: listing.screenshots[0] ?? null,
    monthly_revenue: listing.monthly_revenue,
    monthly_traffic: listing.monthly_traffic,
    starting_price: listing.starting_price,
    current_bid: listing.current_bid,
    buy_now_price: listing.buy_now_price,
    has_reserve: listing.has_reserve,
    reserve_met: listing.reserve_met,
    expires_at: listing.expires_at,
    created_at: listing.created_at,
    bid_count: listing.bid_count,
    ...(listing.price_version === undefined ? {} : { price_version: listing.price_version }),
    ownership_verified: listing.ownership_verified,
    revenue_verified: listing.revenue_verified,
    traffic_verified: listing.traffic_verified,
  };
}

/**
 * How many active listings match per category and per listing type, each under every other filter of the request
 * (a category's count ignores the category filter, not the type or price ones): what each choice would show.
 */
export const BrowseFacetsSchema = z.strictObject({
  category: z.record(z.string(), z.number().int()),
  listing_type: z.strictObject({ auction: z.number().int(), fixed: z.number().int() }),
  /** How many match with a claim their verified revenue or traffic backs (D24), each under every other filter. */
  verified: z.strictObject({ revenue: z.number().int(), traffic: z.number().int() }),
});
export type BrowseFacets = z.infer<typeof BrowseFacetsSchema>;

/** GET /api/listings. */
export const BrowseListingsResponseSchema = z.strictObject({
  listings: z.array(ListingCardSchema),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  limit: z.number().int(),
  facets: BrowseFacetsSchema,
  /**
   * Set when the search as typed matched no live listing and the same search with its unknown words spelled as listings
   * spell them did: the answer is that search's (ADR 0080). Null otherwise.
   */
  corrected_search: z.string().nullable().meta({ example: null }),
}).meta({ id: 'BrowseListingsResponse' });
export type BrowseListingsResponse = z.infer<typeof BrowseListingsResponseSchema>;

/** GET /api/user/listings. */
export const ListingsResponseSchema = z.strictObject({ listings: z.array(ListingSchema) }).meta({ id: 'ListingsResponse' });
export type ListingsResponse = z.infer<typeof ListingsResponseSchema>;

/** An admin Listings row: the listing plus who sells it (null when the auth service cannot name them). */
export const AdminListingSchema = ListingSchema.extend({ seller_username: z.string().nullable() }).meta({ id: 'AdminListing' });
export type AdminListingDto = z.infer<typeof AdminListingSchema>;

/** GET /api/admin/listings. */
export const AdminListingsResponseSchema = z.strictObject({ listings: z.array(AdminListingSchema) }).meta({ id: 'AdminListingsResponse' });
export type AdminListingsResponse = z.infer<typeof AdminListingsResponseSchema>;

/** A watchlist entry (SPEC §3): the listing id, when it was watched, and the listing itself. */
export const WatchlistEntrySchema = z.strictObject({
  listing_id: z.uuid(),
  created_at: IsoDateTimeSchema,
  listing: ListingSchema,
});
export type WatchlistEntryDto = z.infer<typeof WatchlistEntrySchema>;

export const WatchlistResponseSchema = z.strictObject({
  watchlist: z.array(WatchlistEntrySchema),
  /** Whether the user is emailed 24 hours before a watched auction ends (ADR 0074). */
  reminders: z.boolean(),
}).meta({ id: 'WatchlistResponse' });

/** The answer to turning the ending-soon reminders on or off. */
export const WatchRemindersSchema = z.strictObject({ reminders: z.boolean() }).meta({ id: 'WatchReminders' });
export type WatchlistResponse = z.infer<typeof WatchlistResponseSchema>;

/**
 * listings.update answer: the edited listing, and the screenshot keys no listing uses any more (the gateway deletes
 * them from storage).
 */
export const ListingChangeSchema = z.strictObject({ listing: ListingSchema, removed_screenshots: z.array(z.string()) });
export type ListingChange = z.infer<typeof ListingChangeSchema>;

/** listings.delete answer: the message, and the deleted listing's screenshot keys (the gateway deletes them). */
export const ListingDeletedSchema = z.strictObject({ message: z.string(), removed_screenshots: z.array(z.string()) });
export type ListingDeleted = z.infer<typeof ListingDeletedSchema>;

/**
 * listings.sale_terms (services only): an active listing's sale terms, the fields listing.approved and listing.updated
 * carry to bidding-service (reserve included, D7: never relayed to browsers). Versioned by updated_at like the events.
 */
export const SaleTermsSchema = z.strictObject({
  listing_id: z.uuid(),
  seller_id: z.uuid(),
  title: z.string(),
  website_url: z.string().nullable(),
  status: z.enum(LISTING_STATUSES),
  listing_type: z.enum(['auction', 'fixed']),
  auction_type: z.enum(['auto', 'manual']),
  starting_price: z.number().int(),
  reserve_price: z.number().int().nullable(),
  buy_now_price: z.number().int().nullable(),
  expires_at: IsoDateTimeSchema.nullable(),
  updated_at: IsoDateTimeSchema,
});
export type SaleTerms = z.infer<typeof SaleTermsSchema>;

/** listings.stats (services only): listing counts for the admin overview. */
/** listings.sitemap: a slice of the active listings in id order, with how many there are when asked (ADR 0071). */
export const SitemapListingsSchema = z.strictObject({
  total: z.number().int().nullable(),
  listings: z.array(z.strictObject({ id: z.uuid(), updated_at: IsoDateTimeSchema })),
});
export type SitemapListings = z.infer<typeof SitemapListingsSchema>;

export const ListingStatsSchema = z.strictObject({ total_listings: z.number().int(), active_listings: z.number().int() });
export type ListingStats = z.infer<typeof ListingStatsSchema>;

/** listings.seller_counts (services only): listing counts per seller id asked about (zeros when none). */
export const SellerListingCountsSchema = z.record(
  z.uuid(),
  z.strictObject({ listingCount: z.number().int(), activeListings: z.number().int(), soldListings: z.number().int() }),
);
