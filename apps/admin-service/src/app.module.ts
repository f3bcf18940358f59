import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, ServiceRpc, type ServiceConfig } from '@market/server-kit';
import { CreateAuditLog1763800400000 } from './migrations/1763800400000-create-audit-log';
import { CreateSettings1763800500000 } from './migrations/1763800500000-create-settings';
import { AuditLogForAdminActs1763801600000 } from './migrations/1763801600000-audit-log-for-admin-acts';
import { AdminController } from './stats/admin.controller';
import { AdminOverviewService } from './stats/admin-overview.service';
import { AuditLogRepository } from './audit/audit-log.repository';
import { AuditLogService } from './audit/audit-log.service';
import { SettingsController } from './settings/settings.controller';
import { SettingsRepository } from './settings/settings.repository';
import { SettingsService } from './settings/settings.service';

/** The admin-service: platform settings, stats across services and the audit log (ADR 0032), in the `admin` schema. */
export function adminAppModule(config: ServiceConfig): DynamicModule {
  return defineServiceModule(
    {
      service: 'admin-service',
      schema: 'admin',
      config,
      entities: [],
      migrations: [CreateAuditLog1763800400000, CreateSettings1763800500000, AuditLogForAdminActs1763801600000],
    },
    {
      controllers: [AdminController, SettingsController],
      providers: [ServiceRpc, AdminOverviewService, AuditLogRepository, AuditLogService, SettingsRepository, SettingsService],
    },
  );
}
