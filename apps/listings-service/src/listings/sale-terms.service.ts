import { Injectable } from '@nestjs/common';
import type { Actor, EventPayloads, SaleTerms } from '@market/contracts';
import { notFound, requireActor } from '@market/server-kit';
import { ListingsRepository, type ListingRecord } from './listings.repository';

/** The listing.updated payload of a listing as it now stands (the one place this event is built). */
export function listingUpdatedPayload(listing: ListingRecord): EventPayloads['listing.updated'] {
  return { ...saleTermsOf(listing), featured: listing.featured };
}

/** A listing's sale terms as listing.approved and listing.updated carry them (reserve included: services only, D7). */
export function saleTermsOf(listing: ListingRecord): SaleTerms {
  return {
    listing_id: listing.id,
    seller_id: listing.seller_id,
    title: listing.title,
    website_url: listing.website_url,
    status: listing.status,
    listing_type: listing.listing_type,
    auction_type: listing.auction_type,
    starting_price: listing.starting_price,
    reserve_price: listing.reserve_price,
    buy_now_price: listing.buy_now_price,
    expires_at: listing.expires_at?.toISOString() ?? null,
    updated_at: listing.updated_at.toISOString(),
  };
}

/**
 * listings.sale_terms: bidding-service asks, on behalf of a bidder or buyer, for a listing whose listing.approved it
 * has not consumed yet (ADR 0036). Only an active listing has terms to bid on; anything else is the 404 a bid on it
 * would get.
 */
@Injectable()
export class SaleTermsService {
  constructor(private readonly listings: ListingsRepository) {}

  /** The sale terms of an active listing for a signed-in caller (the bidder or buyer whose token bidding forwarded). */
  async terms(actor: Actor | null, listingId: string): Promise<SaleTerms> {
    requireActor(actor);
    const listing = await this.listings.findById(listingId);
    if (!listing || listing.status !== 'active') throw notFound('Listing not found');
    return saleTermsOf(listing);
  }
}
