import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { AuctionsRepository } from './auctions.repository';
import { SaleTermsKeeper } from './sale-terms';
import { ListingCancellationsRepository } from './listing-cancellations.repository';

/** Keeps each listing's sale terms here from listing events (the bidding service never reads the listings schema). */
@Injectable()
export class ListingEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly auctions: AuctionsRepository,
    private readonly terms: SaleTermsKeeper,
    private readonly cancellations: ListingCancellationsRepository,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('listing.approved', async (event, manager) => {
      await this.terms.apply({ ...event.payload, status: 'active' }, manager, true);
    });
    await this.consumers.subscribe('listing.updated', async (event, manager) => {
      // A cancellation ends the sale through listing.cancelled, which carries the reason (ADR 0042); as terms it would
      // only be a status the sale cannot run under.
      if (event.payload.status === 'cancelled') return;
      await this.terms.apply(event.payload, manager);
    });
    await this.consumers.subscribe('listing.cancelled', async (event, manager) => {
      await this.cancellations.cancel(event.payload, manager);
    });
    await this.consumers.subscribe('listing.deleted', (event, manager) => this.auctions.removeListing(event.payload, manager));
  }
}
