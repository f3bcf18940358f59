import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { AuctionsRepository } from '../auctions/auctions.repository';
import { SaleTermsKeeper } from './sale-terms';
import { CancelSale } from './cancel-sale';

/**
 * The terms with their reserve, which listings-service seals for this service alone (D7, ADR 0066). An event without it
 * was written before sealing by no one of ours, or its seal was not opened: applying it would clear the reserve, so it is
 * refused (retried, then dead-lettered).
 */
function withReserve<T extends { reserve_price?: unknown }>(terms: T): T {
  if (terms.reserve_price === undefined) throw new Error('The listing event carries no reserve price (sealed for bidding-service)');
  return terms;
}

/** Keeps each listing's sale terms here from listing events (the bidding service never reads the listings schema). */
@Injectable()
export class ListingEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly auctions: AuctionsRepository,
    private readonly terms: SaleTermsKeeper,
    private readonly cancellations: CancelSale,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('listing.approved', async (event, manager) => {
      await this.terms.apply(withReserve({ ...event.payload, status: 'active' }), manager, true);
    });
    await this.consumers.subscribe('listing.updated', async (event, manager) => {
      // A cancellation ends the sale through listing.cancelled, which carries the reason (ADR 0042); as terms it would
      // only be a status the sale cannot run under.
      if (event.payload.status === 'cancelled') return;
      await this.terms.apply(withReserve(event.payload), manager);
    });
    await this.consumers.subscribe('listing.cancelled', async (event, manager) => {
      await this.cancellations.cancel(event.payload, manager);
    });
    await this.consumers.subscribe('listing.deleted', (event, manager) => this.auctions.removeListing(event.payload, manager));
  }
}
