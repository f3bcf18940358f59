import { defineRpc } from '../rpc';
import { EmptyRequestSchema, IdRequestSchema, MessageResponseSchema } from '../common.schemas';
import {
  AdminListingSchema,
  AdminListingsResponseSchema,
  BrowseListingsResponseSchema,
  ListingChangeSchema,
  ListingDeletedSchema,
  ListingSchema,
  ListingsResponseSchema,
  ListingStatsSchema,
  SaleTermsSchema,
  SellerListingCountsSchema,
  SitemapListingsSchema,
  WatchlistResponseSchema,
  WatchRemindersSchema,
} from './listing.dto';
import {
  AdminListingsQuerySchema,
  AdminUpdateListingRequestSchema,
  AdminCancelListingRequestSchema,
  BrowseListingsQuerySchema,
  CreateListingRequestSchema,
  SaleTermsRequestSchema,
  SellerCountsRequestSchema,
  SitemapSliceRequestSchema,
  SetListingStatusRequestSchema,
  UpdateListingRequestSchema,
  WatchlistAddSchema,
  WatchlistRemoveSchema,
  WatchRemindersRequestSchema,
} from './listing.schemas';
import { LISTING_OWNERSHIP_RPC } from './ownership.rpc';
import { SAVED_SEARCH_RPC } from './saved-search.rpc';
import { REVIEW_RPC } from './review.rpc';
import { VERIFIED_FIGURES_RPC } from './verified-figures.rpc';

/** listings-service's request subjects. */
export const LISTINGS_RPC = {
  /** Listing counts for the admin overview; admin-service asks. */
  stats: defineRpc('listings.stats', EmptyRequestSchema, ListingStatsSchema, { internal: true }),
  /** Listing counts per seller for the admin Users tab; admin-service asks. */
  sellerCounts: defineRpc('listings.seller_counts', SellerCountsRequestSchema, SellerListingCountsSchema, { internal: true }),
  /**
   * An active listing's sale terms, for a bid, offer or buy-now on a listing bidding-service has not heard of yet
   * (its listing.approved not yet consumed, ADR 0036); 404 when the listing is not active. bidding-service asks.
   */
  saleTerms: defineRpc('listings.sale_terms', SaleTermsRequestSchema, SaleTermsSchema, { internal: true }),
  create: defineRpc('listings.create', CreateListingRequestSchema, ListingSchema),
  /** One listing with its seller card (also asked by notifications-service for a message's listing). */
  get: defineRpc('listings.get', IdRequestSchema, ListingSchema),
  browse: defineRpc('listings.browse', BrowseListingsQuerySchema, BrowseListingsResponseSchema),
  /** A slice of the active listings for the gateway's sitemaps (ADR 0071); public facts only. */
  sitemap: defineRpc('listings.sitemap', SitemapSliceRequestSchema, SitemapListingsSchema),
  /** The edit form; the answer names the screenshots no longer used, which the gateway deletes. */
  update: defineRpc('listings.update', UpdateListingRequestSchema, ListingChangeSchema),
  setStatus: defineRpc('listings.set_status', SetListingStatusRequestSchema, ListingSchema),
  /** Sellers and admins alike; the answer names the screenshots to delete. */
  delete: defineRpc('listings.delete', IdRequestSchema, ListingDeletedSchema),
  mine: defineRpc('listings.mine', EmptyRequestSchema, ListingsResponseSchema),
  adminList: defineRpc('listings.admin.list', AdminListingsQuerySchema, AdminListingsResponseSchema),
  adminUpdate: defineRpc('listings.admin.update', AdminUpdateListingRequestSchema, AdminListingSchema),
  adminCancel: defineRpc('listings.admin.cancel', AdminCancelListingRequestSchema, AdminListingSchema),
  watchlistAdd: defineRpc('listings.watchlist.add', WatchlistAddSchema, MessageResponseSchema),
  watchlistList: defineRpc('listings.watchlist.list', EmptyRequestSchema, WatchlistResponseSchema),
  watchlistRemove: defineRpc('listings.watchlist.remove', WatchlistRemoveSchema, MessageResponseSchema),
  watchReminders: defineRpc('listings.watchlist.reminders', WatchRemindersRequestSchema, WatchRemindersSchema),
  ...LISTING_OWNERSHIP_RPC,
  ...SAVED_SEARCH_RPC,
  ...REVIEW_RPC,
  ...VERIFIED_FIGURES_RPC,
};
