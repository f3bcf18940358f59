import { Injectable } from '@nestjs/common';
import { RPC, SELLER_PAGE_LISTINGS, SELLER_PAGE_REVIEWS, type SellerPageDto } from '@market/contracts';
import { notFound, ServiceRpc } from '@market/server-kit';
import { SellerDirectory } from '../listings/seller-directory';
import { presentCard } from '../listings/listing.presenter';
import { presentReview, reviewAuthors } from './review.presenter';
import { ReviewRepository } from './review.repository';
import { SellerListingsRepository } from './seller-listings.repository';

/**
 * A seller's public page (ADR 0083): who they are, their rating and reviews, sales completed and live listings. An
 * unknown, suspended or deleted account is one answer, so the page never says which.
 */
@Injectable()
export class SellerPageService {
  constructor(
    private readonly rpc: ServiceRpc,
    private readonly directory: SellerDirectory,
    private readonly reviews: ReviewRepository,
    private readonly listings: SellerListingsRepository,
  ) {}

  /** One page of a seller's reviews with their profile, standing and live listings; one 404 for any account not active. */
  async page(username: string, page: number): Promise<SellerPageDto> {
    const { profile } = await this.rpc.call(RPC.auth.profileByUsername, { username }, null);
    if (!profile) throw notFound('This account is not active.');
    const now = new Date();
    const [standing, rows, live] = await Promise.all([
      this.directory.standing(profile.id, now),
      this.reviews.sellerReviews(profile.id, now, (page - 1) * SELLER_PAGE_REVIEWS, SELLER_PAGE_REVIEWS),
      this.listings.live(profile.id, SELLER_PAGE_LISTINGS),
    ]);
    const authors = await this.directory.profiles(reviewAuthors(rows));
    return {
      seller: { id: profile.id, username: profile.username, name: profile.name, verified: profile.verified, member_since: profile.member_since, ...standing },
      reviews: rows.map((row) => presentReview(row, authors)),
      page,
      pages: Math.max(1, Math.ceil(standing.review_count / SELLER_PAGE_REVIEWS)),
      listings: live.cards.map(presentCard),
      listing_count: live.total,
    };
  }
}
