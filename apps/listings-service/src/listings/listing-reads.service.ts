import { Injectable } from '@nestjs/common';
import type { Actor, AdminListingDto, ListingDto } from '@market/contracts';
import { notFound, requireActor, requireAdmin } from '@market/server-kit';
import { ListingsRepository } from './listings.repository';
import { presentListing } from './listing.presenter';
import { listingAbilities } from './listing.policy';
import { SellerDirectory } from './seller-directory';
import { BidHistoryClient } from './bid-history.client';
import { VerifiedFiguresService } from '../verification/verified-figures.service';

/** Listings as their pages and lists show them: one listing with what surrounds it, a seller's own, the admin's list. */
@Injectable()
export class ListingReadsService {
  constructor(
    private readonly listings: ListingsRepository,
    private readonly sellers: SellerDirectory,
    private readonly bidHistory: BidHistoryClient,
    private readonly figures: VerifiedFiguresService,
  ) {}

  /**
   * One listing with its seller card, bid history (asked of bidding-service, ADR 0036) and verified figures (D24);
   * drafts and listings under review only for their seller and admins.
   */
  async get(actor: Actor | null, id: string): Promise<ListingDto> {
    const listing = await this.listings.findById(id);
    if (!listing || !listingAbilities(actor, listing).read) throw notFound('Listing not found');
    const [seller, bidHistory, figures] = await Promise.all([
      this.sellers.sellerCard(listing.seller_id),
      this.bidHistory.of(actor, listing),
      this.figures.figuresOf([listing]),
    ]);
    const dto = presentListing(listing, actor, seller);
    if (bidHistory) dto.bid_history = bidHistory;
    dto.verification = figures.get(listing.id);
    return dto;
  }

  /** The caller's own listings, every status. */
  async mine(actor: Actor | null): Promise<{ listings: ListingDto[] }> {
    const seller = requireActor(actor);
    const rows = await this.listings.listBySeller(seller.user_id);
    return { listings: rows.map((l) => presentListing(l, seller)) };
  }

  /** Every listing with its seller's username and verified figures, for the admin Listings tab (the review, D24). */
  async adminList(actor: Actor | null, limit: number): Promise<{ listings: AdminListingDto[] }> {
    const admin = requireAdmin(actor);
    const rows = await this.listings.listAll(limit);
    const [profiles, figures] = await Promise.all([this.sellers.profiles(rows.map((r) => r.seller_id)), this.figures.figuresOf(rows)]);
    return {
      listings: rows.map((r) => ({ ...presentListing(r, admin), verification: figures.get(r.id), seller_username: profiles.get(r.seller_id)?.username ?? null })),
    };
  }
}
