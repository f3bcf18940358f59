import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { appendEvent, EventConsumers } from '@market/server-kit';
import { listingUpdatedPayload } from './sale-terms.service';
import { ListingsRepository } from './listings.repository';
import { ListingsService } from './listings.service';
import { UnwoundSalesRepository } from './unwound-sales.repository';

/**
 * Follows the bidding service, which owns each sale: current bid, bid count and end from bid.placed, taken in batches
 * with one write per listing (ADR 0057), and the lower ones from auction.repriced (both versioned, ADR 0038); sold from bid.accepted; expired from auction.closed; back on
 * sale from sale.unwound, after which that sale's events change nothing (ADR 0043).
 */
@Injectable()
export class BidEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly listings: ListingsRepository,
    private readonly service: ListingsService,
    private readonly unwound: UnwoundSalesRepository,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribeBatch('bid.placed', (events, manager) => this.listings.applyBids(events.map((event) => event.payload), manager));
    await this.consumers.subscribe('auction.repriced', (event, manager) => this.listings.applyRepriced(event.payload, manager));
    await this.consumers.subscribe('bid.accepted', async (event, manager) => {
      if (await this.unwound.isUnwound(event.payload.bid_id, manager)) return;
      await this.service.applySaleEnd(manager, event.payload.listing_id, 'sold', event.payload.amount);
    });
    await this.consumers.subscribe('auction.closed', async (event, manager) => {
      if (event.payload.outcome === 'sold' && (await this.unwound.isUnwound(event.payload.winning_bid_id, manager))) return;
      await this.service.applySaleEnd(manager, event.payload.listing_id, event.payload.outcome);
    });
    await this.consumers.subscribe('sale.unwound', (event, manager) => this.applyUnwound(event.payload, manager));
  }

  /** Applies sale.unwound once: remembers the bid, reopens the listing and announces listing.updated (ADR 0043). */
  private async applyUnwound(event: EventPayloads['sale.unwound'], manager: EntityManager): Promise<void> {
    if (!(await this.unwound.record(event, manager))) return;
    const listing = await this.unwound.reopen(event, manager);
    if (listing) await appendEvent(manager, 'listing.updated', listingUpdatedPayload(listing));
  }
}
