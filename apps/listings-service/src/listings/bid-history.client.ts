import { Injectable, Logger } from '@nestjs/common';
import { RPC, type Actor, type BidDto } from '@market/contracts';
import { ServiceRpc, withTimeout } from '@market/server-kit';
import type { ListingRecord } from './listings.repository';

/** How long a listing view waits for its bid history before answering without it (ADR 0036). */
export const BID_HISTORY_TIMEOUT_MS = 500;

/**
 * A listing's latest public bids for GET /api/listings/{id}, asked of bidding-service (`bidding.history`) on each view
 * (ADR 0036): the bids are bidding's, so the list is as fresh as GET /api/listings/{id}/bids.
 */
@Injectable()
export class BidHistoryClient {
  private readonly logger = new Logger('BidHistory');

  constructor(private readonly rpc: ServiceRpc) {}

  /**
   * The listing's bid history: empty without asking when the listing has no public bids (a fixed price takes only
   * private offers, D5; bid_count counts bids only); undefined when bidding-service fails or takes longer than
   * BID_HISTORY_TIMEOUT_MS, so the listing still shows and says nothing about its bids rather than something wrong.
   */
  async of(actor: Actor | null, listing: Pick<ListingRecord, 'id' | 'listing_type' | 'bid_count'>): Promise<BidDto[] | undefined> {
    if (listing.listing_type === 'fixed' || listing.bid_count === 0) return [];
    try {
      const { bids } = await withTimeout(this.rpc.call(RPC.bidding.history, { listing_id: listing.id }, actor), BID_HISTORY_TIMEOUT_MS, RPC.bidding.history.subject);
      return bids;
    } catch (error) {
      this.logger.warn(`Listing ${listing.id} shown without its bid history: ${(error as Error).message}`);
      return undefined;
    }
  }
}
