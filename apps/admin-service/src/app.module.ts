import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, type ServiceConfig } from '@market/server-kit';
import { CreateAuditLog1763800400000 } from './migrations/1763800400000-create-audit-log';
import { AdminController } from './stats/admin.controller';
import { AdminOverviewService } from './stats/admin-overview.service';
import { AuditLogRepository } from './audit/audit-log.repository';
import { AuditLogService } from './audit/audit-log.service';

/** The admin-service: stats across services and the audit log, in the `admin` schema. */
export function adminAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule(
    { service: 'admin-service', schema: 'admin', config, entities: [], migrations: [CreateAuditLog1763800400000] },
    { controllers: [AdminController], providers: [AdminOverviewService, AuditLogRepository, AuditLogService] },
  );
}
