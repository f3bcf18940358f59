import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { ListingsRepository } from './listings.repository';

/** Learns each listing's current bid, bid count and end from bid.placed (issue 5: the bidding service owns them). */
@Injectable()
export class BidEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly listings: ListingsRepository,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('bid.placed', (event, manager) => this.listings.applyBid(event.payload, manager));
  }
}
