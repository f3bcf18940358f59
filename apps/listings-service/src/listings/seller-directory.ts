import { Injectable } from '@nestjs/common';
import { publicProfiles, ServiceRpc } from '@market/server-kit';
import type { PublicProfile, SellerDto } from '@market/contracts';
import { ListingsRepository } from './listings.repository';

/** Seller cards: public profile fields asked of the auth service, sales counted from our own listings. */
@Injectable()
export class SellerDirectory {
  constructor(
    private readonly rpc: ServiceRpc,
    private readonly listings: ListingsRepository,
  ) {}

  /** Public profiles by user id; an empty map when the auth service cannot answer (the listing still shows). */
  profiles(userIds: string[]): Promise<Map<string, PublicProfile>> {
    return publicProfiles(this.rpc, userIds);
  }

  /** The seller card of one listing's seller (SPEC §3 Seller; rating is null until reviews exist, ADR 0013). */
  async sellerCard(sellerId: string): Promise<SellerDto | undefined> {
    const [profiles, counts] = await Promise.all([this.profiles([sellerId]), this.listings.sellerCounts([sellerId])]);
    const profile = profiles.get(sellerId);
    if (!profile) return undefined;
    return {
      id: profile.id,
      name: profile.name,
      username: profile.username,
      verified: profile.verified,
      rating: null,
      total_transactions: counts[0]?.sold ?? 0,
    };
  }
}
