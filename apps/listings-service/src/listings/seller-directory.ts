import { Injectable, Logger } from '@nestjs/common';
import { ServiceRpc } from '@market/server-kit';
import { RPC, type PublicProfile, type SellerDto } from '@market/contracts';
import { ListingsRepository } from './listings.repository';

/** Seller cards: public profile fields asked of the auth service, sales counted from our own listings. */
@Injectable()
export class SellerDirectory {
  private readonly logger = new Logger('SellerDirectory');

  constructor(
    private readonly rpc: ServiceRpc,
    private readonly listings: ListingsRepository,
  ) {}

  /** Public profiles by user id; an empty map when the auth service cannot answer (the listing still shows). */
  async profiles(userIds: string[]): Promise<Map<string, PublicProfile>> {
    if (userIds.length === 0) return new Map();
    try {
      const { profiles } = await this.rpc.send<{ profiles: PublicProfile[] }>(RPC.auth.publicProfiles, { user_ids: [...new Set(userIds)] }, null);
      return new Map(profiles.map((p) => [p.id, p]));
    } catch (error) {
      this.logger.warn(`Seller profiles unavailable: ${(error as Error).message}`);
      return new Map();
    }
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
