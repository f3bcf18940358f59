import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { MessageResponseSchema, UuidSchema } from '../common.schemas';
import { UserSchema } from '../auth/user.dto';
import {
  AdminStatsSchema,
  AdminUpdateUserRequestSchema,
  AdminUsersQuerySchema,
  AdminUsersResponseSchema,
  AuditLogResponseSchema,
  ImpersonationResponseSchema,
  RecentEmailsResponseSchema,
} from './admin.schemas';
import { AuditLogPageSchema, AuditQuerySchema } from './audit.schemas';
import { PlatformSettingsViewSchema, PublicFeesSchema, SaveSettingsSchema } from './settings.schemas';

const UserPath = z.object({ id: UuidSchema });

/** The admin dashboard (SPEC §2): users, stats, the audit log, recent emails, settings and impersonation (D14). */
export const ADMIN_ROUTES = {
  stats: defineRoute({
    method: 'get',
    path: '/admin/stats',
    tag: 'admin',
    summary: 'Counts of users, listings and transactions',
    description:
      'Each count comes from the service that owns it: users are live accounts (active or suspended), a transaction is a paid invoice. ' +
      '`dead_letters` counts events no consumer could apply (ADR 0046); it is null when the event stream did not answer, and the other ' +
      'counts still show.',
    auth: 'admin',
    status: 200,
    reply: AdminStatsSchema,
  }),
  users: defineRoute({
    method: 'get',
    path: '/admin/users',
    tag: 'admin',
    summary: 'Users (deleted accounts left out), newest first, with their listing counts and the total',
    description:
      'Active and suspended accounts; `limit` (1 to 1000, default 1000) caps the rows while `total` counts them all. ' +
      'There is no paging beyond the limit.',
    auth: 'admin',
    query: AdminUsersQuerySchema,
    status: 200,
    reply: AdminUsersResponseSchema,
  }),
  updateUser: defineRoute({
    method: 'patch',
    path: '/admin/users/{id}',
    tag: 'admin',
    summary: "Verify or unverify a seller, or suspend or reactivate a user",
    description: 'Exactly one of verified or status. Suspending ends every session of the user; admin accounts cannot be suspended.',
    auth: 'admin',
    params: UserPath,
    body: AdminUpdateUserRequestSchema,
    status: 200,
    reply: UserSchema,
    errors: [403, 404],
  }),
  deleteUser: defineRoute({
    method: 'delete',
    path: '/admin/users/{id}',
    tag: 'admin',
    summary: 'Delete a user',
    description: 'Personal data is scrubbed and every session ends; listings, bids and invoices keep their history (D17). Admin accounts cannot be deleted.',
    auth: 'admin',
    params: UserPath,
    status: 200,
    reply: MessageResponseSchema,
    errors: [403, 404],
  }),
  impersonate: defineRoute({
    method: 'post',
    path: '/admin/impersonate/{id}',
    tag: 'admin',
    summary: 'Start acting as a user with a one-hour token',
    description: 'Only active, non-admin users. The start and every request made with the token are recorded in the audit log (D14).',
    auth: 'admin',
    params: UserPath,
    status: 200,
    reply: ImpersonationResponseSchema,
    errors: [400, 403, 404],
  }),
  stopImpersonation: defineRoute({
    method: 'post',
    path: '/admin/stop-impersonation',
    tag: 'admin',
    summary: 'End an impersonation (recorded in the audit log)',
    description: 'The one admin path an impersonation token may use; any other token is a 400.',
    auth: 'user',
    status: 200,
    reply: MessageResponseSchema,
    errors: [400],
  }),
  auditLog: defineRoute({
    method: 'get',
    path: '/admin/audit-log',
    tag: 'admin',
    summary: 'The latest 500 impersonation audit entries, newest first (the Overview; GET /admin/audit has the whole log)',
    description:
      'Impersonation only: starts, stops and every request made with an impersonation token, each with the admin, the user acted as, ' +
      "and the request's method and route. Admins' own acts are in GET /admin/audit.",
    auth: 'admin',
    status: 200,
    reply: AuditLogResponseSchema,
  }),
  audit: defineRoute({
    method: 'get',
    path: '/admin/audit',
    tag: 'admin',
    summary: "The audit log: admins' own acts and impersonation entries, newest first",
    description:
      'Each act names the admin (and the admin behind an impersonation), the action, the target and the changed values before and after; ' +
      'passwords and tokens never appear, a changed SMTP password is only named. Filter by actor (an admin id or part of a username), ' +
      'action, target id and from/to (a date, or a date-time); pages of `limit` entries follow `next_cursor`. Real admins only.',
    auth: 'admin',
    query: AuditQuerySchema,
    status: 200,
    reply: AuditLogPageSchema,
  }),
  settings: defineRoute({
    method: 'get',
    path: '/admin/settings',
    tag: 'admin',
    summary: 'The platform settings (the SMTP password is never sent, only whether one is set)',
    description:
      'Keys never saved answer their defaults (review on, registration open, a 10-minute soft close, verified email required). ' +
      '`smtp_password` is always empty and `smtp_password_set` says whether one is stored, so the answer may be posted back as it is.',
    auth: 'admin',
    status: 200,
    reply: PlatformSettingsViewSchema,
  }),
  saveSettings: defineRoute({
    method: 'post',
    path: '/admin/settings',
    tag: 'admin',
    summary: 'Replace the platform settings',
    description: 'The whole settings object; an empty smtp_password keeps the stored one. What GET answered may be posted back as it is.',
    auth: 'admin',
    body: SaveSettingsSchema,
    status: 200,
    reply: PlatformSettingsViewSchema,
  }),
  emails: defineRoute({
    method: 'get',
    path: '/admin/emails',
    tag: 'admin',
    summary: 'The latest 50 emails sent, newest first',
    description: 'Bodies are kept only for emails written to the log (no SMTP server configured); verification and reset links show `token=[redacted]`, never a usable token (ADR 0031).',
    auth: 'admin',
    status: 200,
    reply: RecentEmailsResponseSchema,
  }),
};

/** What selling costs (ADR 0026). */
export const FEES_ROUTES = {
  get: defineRoute({
    method: 'get',
    path: '/fees',
    tag: 'fees',
    summary: 'The success fee in force',
    description: "Deducted from the seller's payout on invoices created from now on (D10); 0 means selling is free.",
    auth: 'public',
    status: 200,
    reply: PublicFeesSchema,
    headers: { 'Cache-Control': 'public, max-age=60' },
  }),
};
