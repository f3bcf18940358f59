import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, type ServiceConfig } from '@market/server-kit';
import { ListingStatsController } from './stats/listing-stats.controller';

/** The listings-service: listings, screenshots metadata, review, browse and watchlist, in the `listings` schema. */
export function listingsAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule(
    { service: 'listings-service', schema: 'listings', config, entities: [], migrations: [] },
    { controllers: [ListingStatsController] },
  );
}
