import type { ListingStatus } from '@market/domain';

/** The seller card on a listing (SPEC §3 Seller). rating is null until reviews exist (ADR 0013). */
export interface SellerDto {
  id: string;
  name: string | null;
  username: string;
  rating: number | null;
  verified: boolean;
  total_transactions: number;
}

/**
 * A listing as the API returns it (SPEC §3 Listing). Money is whole dollars. reserve_price is present only for the
 * seller and admins (D7); everyone else sees has_reserve and reserve_met. screenshots are paths under /api/uploads.
 */
export interface ListingDto {
  id: string;
  seller_id: string;
  seller?: SellerDto;
  title: string;
  description: string;
  category: string;
  listing_type: 'auction' | 'fixed';
  auction_type: 'auto' | 'manual';
  status: ListingStatus;
  featured: boolean;
  screenshots: string[];
  website_url: string;
  monthly_revenue: number;
  annual_revenue: number;
  monthly_traffic: number;
  monthly_expenses: number;
  profit_margin: number;
  business_age_months: number;
  monetization_methods: string[];
  starting_price: number;
  current_bid: number | null;
  buy_now_price: number | null;
  reserve_price?: number | null;
  has_reserve: boolean;
  reserve_met: boolean;
  duration_days: number;
  approved_at: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  bid_count: number;
  key_metrics: string | null;
  growth_opportunities: string | null;
  included_assets: string | null;
  reason_for_selling: string | null;
}

/** GET /api/listings. */
export interface BrowseListingsResponse {
  listings: ListingDto[];
  total: number;
  page: number;
  pages: number;
  limit: number;
}

/** GET /api/user/listings and GET /api/admin/listings. */
export interface ListingsResponse {
  listings: ListingDto[];
}

/** An admin Listings row: the listing plus who sells it. */
export interface AdminListingDto extends ListingDto {
  seller_username: string | null;
}

/** A watchlist entry (SPEC §3): the listing id and the listing itself. */
export interface WatchlistEntryDto {
  listing_id: string;
  created_at: string;
  listing: ListingDto;
}

export interface WatchlistResponse {
  watchlist: WatchlistEntryDto[];
}
