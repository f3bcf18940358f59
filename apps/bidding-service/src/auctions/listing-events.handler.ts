import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { AuctionsRepository } from './auctions.repository';

/** Keeps each listing's sale terms here from listing events (the bidding service never reads the listings schema). */
@Injectable()
export class ListingEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly auctions: AuctionsRepository,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('listing.approved', (event, manager) =>
      this.auctions.applyListing({ ...event.payload, status: 'active' }, manager),
    );
    await this.consumers.subscribe('listing.updated', (event, manager) => this.auctions.applyListing(event.payload, manager));
    await this.consumers.subscribe('listing.deleted', (event, manager) => this.auctions.removeListing(event.payload.listing_id, manager));
  }
}
