import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed, type RpcReply } from '@market/contracts';
import { RpcHandler } from '@market/server-kit';
import { ListingCountsRepository } from './listing-counts.repository';

/** Listing counts for the admin views, from the listings this service owns. */
@Controller()
export class ListingStatsController {
  constructor(private readonly listings: ListingCountsRepository) {}

  @RpcHandler(RPC.listings.stats)
  stats() {
    return this.listings.stats();
  }

  @RpcHandler(RPC.listings.sellerCounts)
  async sellerCounts(input: RpcParsed<typeof RPC.listings.sellerCounts>) {
    const rows = await this.listings.sellerCounts(input.user_ids);
    const counts: RpcReply<typeof RPC.listings.sellerCounts> = Object.fromEntries(
      input.user_ids.map((id) => [id, { listingCount: 0, activeListings: 0, soldListings: 0 }]),
    );
    for (const row of rows) counts[row.seller_id] = { listingCount: row.listing_count, activeListings: row.active, soldListings: row.sold };
    return counts;
  }
}
