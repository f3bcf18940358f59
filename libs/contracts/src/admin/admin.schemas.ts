import { z } from 'zod';
import { IdRequestSchema, IsoDateTimeSchema } from '../common.schemas';
import { UserSchema } from '../auth/user.dto';

/** GET /api/admin/users?limit= */
export const AdminUsersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuerySchema>;

/**
 * PATCH /api/admin/users/{id}: exactly one of verified (the seller badge), status, or email_verified: true (support
 * confirms a member's address, ADR 0037; an address is never marked unverified by hand).
 */
export const AdminUpdateUserRequestSchema = z
  .object({
    verified: z.boolean().optional(),
    status: z.enum(['active', 'suspended']).optional(),
    email_verified: z.literal(true, { message: 'email_verified can only be true: an address is unverified by changing it' }).optional(),
  })
  .strict()
  .refine((body) => [body.verified, body.status, body.email_verified].filter((value) => value !== undefined).length === 1, {
    message: 'Send exactly one of verified, status or email_verified',
  })
  .meta({ id: 'AdminUpdateUserRequest', examples: [{ status: 'suspended' }] });
export type AdminUpdateUserRequest = z.infer<typeof AdminUpdateUserRequestSchema>;

/** auth.admin.update_user: the user the path names and the one change the admin makes. */
export const AdminUpdateUserMessageSchema = IdRequestSchema.extend({ changes: AdminUpdateUserRequestSchema });

/** auth.admin.list_users answer (services only): the newest users up to the limit, and how many there are. */
export const UserListResponseSchema = z.strictObject({ users: z.array(UserSchema), total: z.number().int() });

/** auth.stats answer (services only): live accounts. */
export const UserStatsSchema = z.strictObject({ total_users: z.number().int() });

const listingCounts = {
  listingCount: z.number().int(),
  activeListings: z.number().int(),
  soldListings: z.number().int(),
};

/** A user row in the admin Users tab (SPEC §2), with listing counts from the listings service. */
export const AdminUserSchema = UserSchema.extend(listingCounts);
export type AdminUserDto = z.infer<typeof AdminUserSchema>;

/** GET /api/admin/users. */
export const AdminUsersResponseSchema = z.strictObject({ users: z.array(AdminUserSchema), total: z.number().int() }).meta({ id: 'AdminUsersResponse' });
export type AdminUsersResponse = z.infer<typeof AdminUsersResponseSchema>;

/** POST /api/admin/impersonate/{id}: a one-hour token acting as the user (D14). */
export const ImpersonationResponseSchema = z.strictObject({
  impersonation_token: z.string(),
  target_user: UserSchema,
  original_admin: UserSchema,
}).meta({ id: 'ImpersonationResponse' });
export type ImpersonationResponse = z.infer<typeof ImpersonationResponseSchema>;

/** GET /api/admin/stats: each count from the service that owns it. */
export const AdminStatsSchema = z.strictObject({
  total_users: z.number().int(),
  total_listings: z.number().int(),
  active_listings: z.number().int(),
  total_transactions: z.number().int(),
  /** Events no consumer could apply, waiting on the dead-letter subjects (ADR 0046); null when JetStream did not answer. */
  dead_letters: z.number().int().min(0).nullable(),
}).meta({ id: 'AdminStats' });
export type AdminStats = z.infer<typeof AdminStatsSchema>;

/** One action recorded in the impersonation audit log (D14). */
export const AuditEntrySchema = z.strictObject({
  id: z.uuid(),
  admin_id: z.uuid(),
  target_id: z.uuid(),
  action: z.string(),
  method: z.string(),
  route: z.string(),
  at: IsoDateTimeSchema,
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** GET /api/admin/audit-log: the latest 500 entries, newest first. */
export const AuditLogResponseSchema = z.strictObject({ entries: z.array(AuditEntrySchema) }).meta({ id: 'AuditLogResponse' });

/** An email as the notifications service recorded it; the bodies are kept only when no SMTP server took it. */
export const EmailLogEntrySchema = z.strictObject({
  id: z.string(),
  kind: z.string(),
  to_address: z.string(),
  subject: z.string(),
  text_body: z.string(),
  transport: z.enum(['smtp', 'log']),
  sent_at: IsoDateTimeSchema,
});
export type EmailLogEntry = z.infer<typeof EmailLogEntrySchema>;

/** GET /api/admin/emails: the latest 50 emails, newest first. */
export const RecentEmailsResponseSchema = z.strictObject({ emails: z.array(EmailLogEntrySchema) }).meta({ id: 'RecentEmailsResponse' });

/** Listing counts per seller, from the listings service. */
export interface SellerListingCounts {
  [userId: string]: { listingCount: number; activeListings: number; soldListings: number };
}
