import type { ListingDto } from '@market/contracts';
import type { ListingStatus } from '@market/domain';
import { planActions } from './listing-actions';

type StructuredListing = Pick<
  ListingDto,
  'id' | 'title' | 'description' | 'category' | 'screenshots' | 'status' | 'listing_type' | 'seller_id' | 'expires_at' | 'current_bid' | 'starting_price' | 'buy_now_price'
>;

// schema.org availability for each status: only an active listing can be bought (SPEC §3 statuses).
const AVAILABILITY: Record<ListingStatus, string> = {
  active: 'https://schema.org/InStock',
  sold: 'https://schema.org/SoldOut',
  pending: 'https://schema.org/PreOrder',
  paused: 'https://schema.org/OutOfStock',
  draft: 'https://schema.org/OutOfStock',
  expired: 'https://schema.org/Discontinued',
  cancelled: 'https://schema.org/Discontinued',
};

/**
 * A listing as schema.org JSON-LD (ADR 0072): a Product with one Offer in whole US dollars, priced as the page's
 * headline (the current or starting bid of an auction, the asking price otherwise), its availability from its status.
 */
export function listingStructuredData(listing: StructuredListing, origin: string): object {
  const url = new URL(`/listing/${listing.id}`, origin).href;
  const plan = planActions(listing, null);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: listing.title,
    description: listing.description,
    category: listing.category,
    url,
    ...(listing.screenshots.length ? { image: listing.screenshots.map((shot) => new URL(shot, origin).href) } : {}),
    offers: {
      '@type': 'Offer',
      url,
      price: String(plan.price),
      priceCurrency: 'USD',
      availability: AVAILABILITY[listing.status],
      ...(listing.expires_at ? { priceValidUntil: listing.expires_at.slice(0, 10) } : {}),
    },
  };
}
