import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { AuctionsRepository, type AppliedTerms } from './auctions.repository';
import { CloseJobs } from './close-jobs';

/** Keeps each listing's sale terms here from listing events (the bidding service never reads the listings schema). */
@Injectable()
export class ListingEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly auctions: AuctionsRepository,
    private readonly closeJobs: CloseJobs,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('listing.approved', async (event, manager) =>
      this.scheduleClose(event.payload.listing_id, await this.auctions.applyListing({ ...event.payload, status: 'active' }, manager, true)),
    );
    await this.consumers.subscribe('listing.updated', async (event, manager) =>
      this.scheduleClose(event.payload.listing_id, await this.auctions.applyListing(event.payload, manager)),
    );
    await this.consumers.subscribe('listing.deleted', (event, manager) => this.auctions.removeListing(event.payload, manager));
  }

  /**
   * A live sale gets its close job, without waiting: the event's transaction holds the auction row, so Redis must never
   * hold it up (schedule is best effort; a job that runs before the commit finds nothing due, and the sweep closes it).
   */
  private scheduleClose(listingId: string, applied: AppliedTerms | null): void {
    if (applied?.expires_at && applied.status !== 'sold' && applied.status !== 'expired') void this.closeJobs.schedule(listingId, applied.expires_at);
  }
}
