import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, type ServiceConfig } from '@market/server-kit';

/** The admin-service: settings, stats and the audit log, in the `admin` schema. Its features arrive with their issues. */
export function adminAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule({ service: 'admin-service', schema: 'admin', config, entities: [], migrations: [] });
}
