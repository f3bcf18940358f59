import { listingCard, uploadPath, type Actor, type ListingCardDto, type ListingDto, type SellerDto } from '@market/contracts';
import type { CardRecord } from './listing-card.columns';
import type { ListingRecord } from './listings.repository';
import { listingAbilities } from './listing.policy';

/** A listing as the API returns it: the reserve amount only for those the policy lets change it (D7). */
export function presentListing(record: ListingRecord, viewer: Actor | null, seller?: SellerDto): ListingDto {
  const hasReserve = record.reserve_price !== null;
  const dto: ListingDto = {
    id: record.id,
    seller_id: record.seller_id,
    title: record.title,
    description: record.description,
    category: record.category,
    listing_type: record.listing_type,
    auction_type: record.auction_type,
    status: record.status,
    featured: record.featured,
    screenshots: record.screenshots.map(uploadPath),
    website_url: record.website_url,
    monthly_revenue: record.monthly_revenue,
    annual_revenue: record.annual_revenue,
    monthly_traffic: record.monthly_traffic,
    monthly_expenses: record.monthly_expenses,
    profit_margin: record.profit_margin,
    business_age_months: record.business_age_months,
    monetization_methods: record.monetization_methods,
    starting_price: record.starting_price,
    current_bid: record.current_bid,
    buy_now_price: record.buy_now_price,
    has_reserve: hasReserve,
    reserve_met: reserveMet(record),
    duration_days: record.duration_days,
    approved_at: record.approved_at?.toISOString() ?? null,
    expires_at: record.expires_at?.toISOString() ?? null,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    bid_count: record.bid_count,
    price_version: record.price_version ?? record.bid_count,
    ownership_verified: record.ownership_verified,
    revenue_verified: record.revenue_verified,
    traffic_verified: record.traffic_verified,
    key_metrics: record.key_metrics,
    growth_opportunities: record.growth_opportunities,
    included_assets: record.included_assets,
    reason_for_selling: record.reason_for_selling,
  };
  if (listingAbilities(viewer, record).update) dto.reserve_price = record.reserve_price;
  if (seller) dto.seller = seller;
  return dto;
}

/** Whether the price has reached the reserve; true when there is none (SPEC §3 Listing). */
function reserveMet(record: Pick<ListingRecord, 'reserve_price' | 'current_bid'>): boolean {
  return record.reserve_price === null || (record.current_bid !== null && record.current_bid >= record.reserve_price);
}

/**
 * A listing's browse card (ADR 0082) from its card columns (or a whole row), made by contracts' listingCard as the
 * web makes one of a whole listing, without presenting what a card does not show.
 */
export function presentCard(record: CardRecord): ListingCardDto {
  return listingCard({
    id: record.id,
    title: record.title,
    description: record.description,
    category: record.category,
    listing_type: record.listing_type,
    status: record.status,
    featured: record.featured,
    screenshots: record.screenshots.slice(0, 1).map(uploadPath),
    monthly_revenue: record.monthly_revenue,
    monthly_traffic: record.monthly_traffic,
    starting_price: record.starting_price,
    current_bid: record.current_bid,
    buy_now_price: record.buy_now_price,
    has_reserve: record.reserve_price !== null,
    reserve_met: reserveMet(record),
    expires_at: record.expires_at?.toISOString() ?? null,
    created_at: record.created_at.toISOString(),
    bid_count: record.bid_count,
    price_version: record.price_version ?? record.bid_count,
    ownership_verified: record.ownership_verified,
    revenue_verified: record.revenue_verified,
    traffic_verified: record.traffic_verified,
  });
}
