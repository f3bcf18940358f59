import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, type ServiceConfig } from '@market/server-kit';
import { BillingStatsController } from './stats/billing-stats.controller';

/** The billing-service: invoices, payments and escrow, in the `billing` schema. */
export function billingAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule(
    { service: 'billing-service', schema: 'billing', config, entities: [], migrations: [] },
    { controllers: [BillingStatsController] },
  );
}
