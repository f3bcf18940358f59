import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, type ServiceConfig } from '@market/server-kit';

/** The bidding-service: auction state, bids, offers and auction close, in the `bidding` schema. Its features arrive with their issues. */
export function biddingAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule({ service: 'bidding-service', schema: 'bidding', config, entities: [], migrations: [] });
}
