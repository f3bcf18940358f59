import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, type ServiceConfig } from '@market/server-kit';
import { CreateListings1763800600000 } from './migrations/1763800600000-create-listings';
import { ListingsRepository } from './listings/listings.repository';
import { ListingStatsController } from './stats/listing-stats.controller';

/** The listings-service: listings, screenshots metadata, review, browse and watchlist, in the `listings` schema. */
export function listingsAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule(
    { service: 'listings-service', schema: 'listings', config, entities: [], migrations: [CreateListings1763800600000] },
    { controllers: [ListingStatsController], providers: [ListingsRepository] },
  );
}
