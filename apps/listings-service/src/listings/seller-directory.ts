import { Injectable } from '@nestjs/common';
import type { PublicProfile, SellerDto } from '@market/contracts';
import { meanRating } from '@market/domain';
import { publicProfiles, ServiceRpc } from '@market/server-kit';
import { ReviewRepository } from '../reviews/review.repository';

/** Who sellers are, for listing pages: public profiles from the auth service and their standing from reviews (D23). */
@Injectable()
export class SellerDirectory {
  constructor(
    private readonly rpc: ServiceRpc,
    private readonly reviews: ReviewRepository,
  ) {}

  /** Public profiles by user id; an empty map when the auth service cannot answer (the listing still shows). */
  profiles(userIds: string[]): Promise<Map<string, PublicProfile>> {
    return publicProfiles(this.rpc, userIds);
  }

  /** A seller's rating (the mean of visible reviews), how many reviews it comes from, and sales completed (D23). */
  async standing(sellerId: string, now = new Date()): Promise<Pick<SellerDto, 'rating' | 'review_count' | 'total_transactions'>> {
    const stats = await this.reviews.sellerStats(sellerId, now);
    return { rating: meanRating(stats.stars_total, stats.review_count), review_count: stats.review_count, total_transactions: stats.sales };
  }

  /** The seller card of one listing's seller (SPEC §3 Seller). */
  async sellerCard(sellerId: string): Promise<SellerDto | undefined> {
    const [profiles, standing] = await Promise.all([this.profiles([sellerId]), this.standing(sellerId)]);
    const profile = profiles.get(sellerId);
    if (!profile) return undefined;
    return { id: profile.id, name: profile.name, username: profile.username, verified: profile.verified, ...standing };
  }
}
