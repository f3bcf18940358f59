import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, type ServiceConfig } from '@market/server-kit';

/** The billing-service: invoices, payments and escrow, in the `billing` schema. Its features arrive with their issues. */
export function billingAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule({ service: 'billing-service', schema: 'billing', config, entities: [], migrations: [] });
}
