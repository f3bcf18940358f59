import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { RPC, type AdminStats, type RpcEnvelope, type SellerListingCounts } from '@market/contracts';
import { parseInput } from '@market/server-kit';
import { ListingsRepository } from '../listings/listings.repository';

/** Listing counts for the admin views, from the listings this service owns. */
@Controller()
export class ListingStatsController {
  constructor(private readonly listings: ListingsRepository) {}

  @MessagePattern(RPC.listings.stats)
  stats(): Promise<Pick<AdminStats, 'total_listings' | 'active_listings'>> {
    return this.listings.stats();
  }

  @MessagePattern(RPC.listings.sellerCounts)
  async sellerCounts(@Payload() message: RpcEnvelope): Promise<SellerListingCounts> {
    const { user_ids } = parseInput(z.object({ user_ids: z.array(z.uuid()).max(1000) }), message.data);
    const rows = await this.listings.sellerCounts(user_ids);
    const counts: SellerListingCounts = Object.fromEntries(user_ids.map((id) => [id, { listingCount: 0, activeListings: 0, soldListings: 0 }]));
    for (const row of rows) counts[row.seller_id] = { listingCount: row.listing_count, activeListings: row.active, soldListings: row.sold };
    return counts;
  }
}
