import { z } from 'zod';
import { isSecretKey, type AuditValues } from '@market/domain';
import { IsoDateTimeSchema, UuidSchema } from '../common.schemas';
import type { Actor } from '../rpc';

/** What an admin act is about. */
export const AUDIT_TARGET_TYPES = ['user', 'listing', 'payment', 'settings', 'invoice', 'review'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The acts admins' own changes are recorded under (admin.acted, ADR 0032). */
export const ADMIN_ACT_ACTIONS = [
  'user.suspended',
  'user.activated',
  'user.verified',
  'user.unverified',
  'user.email_verified',
  // An admin lifted a member's buying hold after unpaid purchases (ADR 0043).
  'user.buying_hold_lifted',
  // An admin cancelled an unpaid sale (ADR 0043).
  'invoice.sale_cancelled',
  'user.deleted',
  'user.impersonated',
  'settings.updated',
  'payment.captured',
  'payment.refunded',
  'listing.status_changed',
  'dispute.resolved',
  'listing.featured',
  'listing.unfeatured',
  'listing.edited',
  'listing.deleted',
  'listing.cancelled',
  // An admin hid a review that breaks the rules (D23, ADR 0083).
  'review.hidden',
] as const;
export type AdminActAction = (typeof ADMIN_ACT_ACTIONS)[number];

/** The gateway's impersonation entries (audit.recorded, ADR 0009), kept in the same log. */
export const IMPERSONATION_ACTIONS = ['impersonation.start', 'impersonation.stop', 'request'] as const;

/** Every action the audit log can hold, for its filter. */
export const AUDIT_ACTIONS = [...ADMIN_ACT_ACTIONS, ...IMPERSONATION_ACTIONS] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const auditValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Changed fields and their values; a field that names a password, token or secret is refused (ADR 0032). */
export const AuditValuesSchema = z
  .record(z.string(), auditValue)
  .refine((values) => !Object.keys(values).some(isSecretKey), 'An audit entry never holds a password, token or secret');

const id = z.string().min(1);
const time = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'Not a date-time');

/**
 * The admin.acted payload: who (the actor and, under impersonation, the admin behind it), what, the target and the
 * changed values. Action and target type are open strings here, so a consumer older than a new action still keeps it.
 */
export const AdminActedSchema = z.object({
  admin_id: id,
  impersonator_id: id.nullable(),
  action: z.string().regex(/^[a-z_]+\.[a-z_]+$/),
  target_type: z.string().min(1),
  target_id: id.nullable(),
  /** What the target was called when the act was made (a listing's title, an invoice number); never personal data. */
  target_label: z.string().nullable(),
  before: AuditValuesSchema.nullable(),
  after: AuditValuesSchema.nullable(),
  /** Secret fields that changed (the SMTP password): only their names. */
  changed_secrets: z.array(z.string()),
  at: time,
});
export type AdminActed = z.infer<typeof AdminActedSchema>;

/** One admin act as a service describes it; adminActed adds who and when. */
export interface AdminAct {
  action: AdminActAction;
  target_type: AuditTargetType;
  target_id: string | null;
  target_label?: string | null;
  before: AuditValues | null;
  after: AuditValues | null;
  changed_secrets?: string[];
}

/** The admin.acted payload for an act by this actor, now. */
export function adminActed(actor: Actor, act: AdminAct): AdminActed {
  return {
    admin_id: actor.user_id,
    impersonator_id: actor.impersonator_id ?? null,
    action: act.action,
    target_type: act.target_type,
    target_id: act.target_id,
    target_label: act.target_label ?? null,
    before: act.before,
    after: act.after,
    changed_secrets: act.changed_secrets ?? [],
    at: new Date().toISOString(),
  };
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const DAY = z.iso.date();
const moment = z.preprocess(blankToUndefined, z.union([DAY, IsoDateTimeSchema], { message: 'Use a date (YYYY-MM-DD) or a date-time' }).optional());

/** The start of a `from` filter: a date means its first moment (UTC). */
export function auditFrom(value: string): Date {
  return new Date(DAY.safeParse(value).success ? `${value}T00:00:00.000Z` : value);
}

/** The (exclusive) end of a `to` filter: a date means the whole of that day (UTC). */
export function auditTo(value: string): Date {
  if (!DAY.safeParse(value).success) return new Date(value);
  const end = new Date(`${value}T00:00:00.000Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return end;
}

/** GET /api/admin/audit: filters, newest first, a page at a time (ADR 0032). */
export const AuditQuerySchema = z
  .object({
    /** An admin's id or (part of) a username; matches the acting admin and the admin behind an impersonation. */
    actor: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()),
    action: z.preprocess(blankToUndefined, z.enum(AUDIT_ACTIONS, { message: 'Unknown action' }).optional()),
    /** The id of the user, listing or payment acted on. */
    target: z.preprocess(blankToUndefined, UuidSchema.optional()),
    /** Entries at or after this date (its start) or moment. */
    from: moment,
    /** Entries before the end of this date, or before this moment. */
    to: moment,
    limit: z.coerce.number().int().min(1).max(200).default(50),
    /** The next_cursor of the previous page. */
    cursor: z.preprocess(blankToUndefined, z.string().max(200).optional()),
  })
  .refine((query) => !query.from || !query.to || auditFrom(query.from) < auditTo(query.to), { message: 'from must be before to', path: ['to'] });
export type AuditQuery = z.output<typeof AuditQuerySchema>;

/** One entry of the audit log: an admin's act, or an impersonation start, stop or request. */
export const AuditLogEntrySchema = z.strictObject({
  id: z.uuid(),
  at: IsoDateTimeSchema,
  action: z.string(),
  /** Who acted (for impersonation entries, the impersonating admin) and their current username. */
  admin_id: z.uuid(),
  admin_username: z.string().nullable(),
  /** The admin behind an impersonated act, if any. */
  impersonator_id: z.uuid().nullable(),
  impersonator_username: z.string().nullable(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** The listing title or invoice number at the time, or a user's current username. */
  target_label: z.string().nullable(),
  before: AuditValuesSchema.nullable(),
  after: AuditValuesSchema.nullable(),
  changed_secrets: z.array(z.string()),
  /** The HTTP request of an impersonation entry. */
  request: z.strictObject({ method: z.string(), route: z.string() }).nullable(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>;

/** GET /api/admin/audit: a page of entries, newest first, and the cursor of the next (older) page. */
export const AuditLogPageSchema = z.strictObject({ entries: z.array(AuditLogEntrySchema), next_cursor: z.string().nullable() }).meta({ id: 'AuditLogPage' });
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;
