import type { ServiceDatabase } from '@market/server-kit';
import { CreateAuditLog1763800400000 } from './migrations/1763800400000-create-audit-log';
import { CreateSettings1763800500000 } from './migrations/1763800500000-create-settings';
import { AuditLogForAdminActs1763801600000 } from './migrations/1763801600000-audit-log-for-admin-acts';

/** The `admin` schema: what the admin-service and its migrate step (ADR 0053) open. */
export const ADMIN_DATABASE: ServiceDatabase = {
  schema: 'admin',
  entities: [],
  migrations: [CreateAuditLog1763800400000, CreateSettings1763800500000, AuditLogForAdminActs1763801600000],
};
