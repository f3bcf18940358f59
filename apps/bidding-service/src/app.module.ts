import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, ServiceRpc, type ServiceConfig } from '@market/server-kit';
import { CreateAuctions1763800900000 } from './migrations/1763800900000-create-auctions';
import { AuctionsRepository } from './auctions/auctions.repository';
import { ListingEventsHandler } from './auctions/listing-events.handler';
import { BidsService } from './auctions/bids.service';
import { BidsController } from './auctions/bids.controller';

/** The bidding-service: auction state, bids, offers and auction close, in the `bidding` schema (issue 5 in progress). */
export function biddingAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule(
    { service: 'bidding-service', schema: 'bidding', config, entities: [], migrations: [CreateAuctions1763800900000] },
    { controllers: [BidsController], providers: [ServiceRpc, AuctionsRepository, ListingEventsHandler, BidsService] },
  );
}
