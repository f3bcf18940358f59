import { z } from 'zod';
import { passwordProblem } from '@market/domain';
import { IsoDateTimeSchema, MessageResponseSchema } from '../common.schemas';

const newPassword = z.string().superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const email = z.string().trim().max(254).pipe(z.email({ message: 'Enter a valid email address' }));
const token = z.string().min(10, 'Invalid token').max(200, 'Invalid token');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));

/** POST /api/auth/verify-email?token= */
export const VerifyEmailQuerySchema = z.object({ token });

/** POST /api/auth/forgot-password */
export const ForgotPasswordRequestSchema = z.object({ email }).strict().meta({ id: 'ForgotPasswordRequest' });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>;

/** POST /api/auth/reset-password */
export const ResetPasswordRequestSchema = z.object({ token, new_password: newPassword }).strict().meta({ id: 'ResetPasswordRequest' });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

/** PATCH /api/user/profile: name and email required (SPEC §5). */
export const UpdateProfileRequestSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(100),
    email,
    bio: optionalText(2000),
    website: optionalText(300)
      .refine((value) => value === null || /^https?:\/\/[^\s]+\.[^\s]+$/i.test(value), 'Enter a full URL starting with http:// or https://')
      .meta({ example: 'https://janedoe.example' }),
    phone: optionalText(40),
    location: optionalText(120),
    /** Required when the email changes, and only read then (ADR 0034). */
    current_password: z.string().min(1, 'Enter your current password to change your email').max(1024).optional(),
  })
  .strict().meta({ id: 'UpdateProfileRequest' });
export type UpdateProfileRequest = z.input<typeof UpdateProfileRequestSchema>;
export type UpdateProfile = z.output<typeof UpdateProfileRequestSchema>;

/** POST /api/auth/undo-email-change: the token from the link mailed to the old address (ADR 0034). */
export const UndoEmailChangeRequestSchema = z.object({ token }).strict().meta({ id: 'UndoEmailChangeRequest' });
export type UndoEmailChangeRequest = z.infer<typeof UndoEmailChangeRequestSchema>;

/** PATCH /api/user/password */
export const ChangePasswordRequestSchema = z
  .object({ current_password: z.string().min(1, 'Current password is required').max(1024), new_password: newPassword })
  .strict().meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

/** PATCH /api/user/password answers with a fresh token: every other session has ended. */
export const ChangePasswordResponseSchema = MessageResponseSchema.extend({ access_token: z.string() }).meta({ id: 'ChangePasswordResponse' });
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;

/** auth.session_state (the gateway's token check): the account whose token is checked. */
/** auth.session_state: an account, and one of its sessions when a token names one. */
export const SessionStateRequestSchema = z.object({ user_id: z.uuid(), session_id: z.uuid().optional() }).strict();

/** An account as every process checks it on each request (ADR 0030): its token version, status, role and verified email. */
export const AccountStateSchema = z.strictObject({
  token_version: z.number().int(),
  status: z.enum(['active', 'suspended', 'deleted']),
  role: z.enum(['admin', 'regular']),
  /** Whether the account's current email is verified: committing to buy or sell needs it (D13, require_verified_email). */
  email_verified: z.boolean(),
});
export type AccountState = z.infer<typeof AccountStateSchema>;

/**
 * auth.session_state answer: the account's state, and whether the session asked about still stands; with both as
 * auth-service signed them for Redis (ADR 0065), which the caller may store as they are (it cannot sign them itself).
 */
export const SessionStateSchema = AccountStateSchema.extend({
  session_active: z.boolean(),
  sealed: z.strictObject({ account: z.string().max(1000), session: z.string().max(500).optional() }).optional(),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

/**
 * Core NATS subject (after NATS_SUBJECT_PREFIX) on which auth-service announces that account or session states changed
 * (ADR 0057): every process drops what it keeps of them in memory. `all` drops everything (keys repaired after Redis
 * missed a write).
 */
export const IDENTITY_CHANGED_SUBJECT = 'identity.changed';

/** What an identity.changed notice names: the accounts and sessions whose state changed, or all of them. */
export const IdentityChangeSchema = z.object({
  users: z.array(z.string().max(100)).max(10_000).optional(),
  sessions: z.array(z.string().max(100)).max(10_000).optional(),
  all: z.literal(true).optional(),
});
export type IdentityChange = z.infer<typeof IdentityChangeSchema>;

/** Where a login came from, as the gateway saw it: kept on the session so its owner can recognise it. */
export const ClientInfoSchema = z.object({ address: z.string().max(100).nullable(), user_agent: z.string().max(500).nullable() }).strict();
export type ClientInfo = z.infer<typeof ClientInfoSchema>;

/** One of the caller's login sessions (GET /api/user/sessions). */
export const UserSessionSchema = z.strictObject({
  id: z.uuid(),
  /** The browser or app, from its User-Agent (null when it sent none). */
  device: z.string().nullable(),
  /** The address it logged in from. */
  address: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  last_seen_at: IsoDateTimeSchema,
  /** The session of the token that asked. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof UserSessionSchema>;
export const UserSessionsResponseSchema = z.strictObject({ sessions: z.array(UserSessionSchema) }).meta({ id: 'UserSessionsResponse' });
export type UserSessionsResponse = z.infer<typeof UserSessionsResponseSchema>;

export const FORGOT_PASSWORD_MESSAGE = 'If an account with that email exists, a password reset link has been sent.';
