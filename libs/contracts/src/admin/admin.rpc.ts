import { defineRpc } from '../rpc';
import { EmptyRequestSchema } from '../common.schemas';
import { AdminStatsSchema, AdminUsersQuerySchema, AdminUsersResponseSchema, AuditLogResponseSchema } from './admin.schemas';
import { AuditLogPageSchema, AuditQuerySchema } from './audit.schemas';
import { PlatformSettingsSchema, PlatformSettingsViewSchema, PublicFeesSchema, SaveSettingsSchema } from './settings.schemas';

/** admin-service's request subjects. */
export const ADMIN_RPC = {
  stats: defineRpc('admin.stats', EmptyRequestSchema, AdminStatsSchema),
  users: defineRpc('admin.users', AdminUsersQuerySchema, AdminUsersResponseSchema),
  getSettings: defineRpc('admin.settings.get', EmptyRequestSchema, PlatformSettingsViewSchema),
  updateSettings: defineRpc('admin.settings.update', SaveSettingsSchema, PlatformSettingsViewSchema),
  /** Full settings (SMTP password included) for services; never routed by the gateway. */
  effectiveSettings: defineRpc('admin.settings.effective', EmptyRequestSchema, PlatformSettingsSchema, { internal: true }),
  /** GET /api/fees: what selling costs, for anyone (ADR 0026). */
  publicFees: defineRpc('admin.settings.public_fees', EmptyRequestSchema, PublicFeesSchema),
  auditLog: defineRpc('admin.audit_log', EmptyRequestSchema, AuditLogResponseSchema),
  /** The whole audit log (admins' acts and impersonation), filtered and paged; real admins only (ADR 0032). */
  audit: defineRpc('admin.audit', AuditQuerySchema, AuditLogPageSchema),
};
