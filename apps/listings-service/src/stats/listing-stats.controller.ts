import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { RPC, type AdminStats, type RpcEnvelope, type SellerListingCounts } from '@market/contracts';
import { parseInput } from '@market/server-kit';

/**
 * Counts this service owns. No listing can exist before the listings feature (issue 4) adds its table,
 * so today every count is zero; issue 4 replaces these answers with queries.
 */
@Controller()
export class ListingStatsController {
  @MessagePattern(RPC.listings.stats)
  stats(): Pick<AdminStats, 'total_listings' | 'active_listings'> {
    return { total_listings: 0, active_listings: 0 };
  }

  @MessagePattern(RPC.listings.sellerCounts)
  sellerCounts(@Payload() message: RpcEnvelope): SellerListingCounts {
    const { user_ids } = parseInput(z.object({ user_ids: z.array(z.uuid()).max(1000) }), message.data);
    return Object.fromEntries(user_ids.map((id) => [id, { listingCount: 0, activeListings: 0, soldListings: 0 }]));
  }
}
