import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { ListingsRepository } from './listings.repository';
import { ListingsService } from './listings.service';

/**
 * Follows the bidding service, which owns each sale: current bid, bid count and end from bid.placed, and the lower
 * ones from auction.repriced (both versioned, ADR 0038); sold from bid.accepted; expired from auction.closed.
 */
@Injectable()
export class BidEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly listings: ListingsRepository,
    private readonly service: ListingsService,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('bid.placed', (event, manager) => this.listings.applyBid(event.payload, manager));
    await this.consumers.subscribe('auction.repriced', (event, manager) => this.listings.applyRepriced(event.payload, manager));
    await this.consumers.subscribe('bid.accepted', (event, manager) =>
      this.service.applySaleEnd(manager, event.payload.listing_id, 'sold', event.payload.amount),
    );
    await this.consumers.subscribe('auction.closed', (event, manager) =>
      this.service.applySaleEnd(manager, event.payload.listing_id, event.payload.outcome),
    );
  }
}
