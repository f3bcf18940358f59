import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, ServiceRpc, type ServiceConfig } from '@market/server-kit';
import { ADMIN_DATABASE } from './admin.database';
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
      config,
      ...ADMIN_DATABASE,
    },
    {
      controllers: [AdminController, SettingsController],
      providers: [ServiceRpc, AdminOverviewService, AuditLogRepository, AuditLogService, SettingsRepository, SettingsService],
    },
  );
}
