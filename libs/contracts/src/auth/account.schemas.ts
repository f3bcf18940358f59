import { z } from 'zod';
import { passwordProblem } from '@market/domain';
import { MessageResponseSchema } from '../common.schemas';

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
export const ForgotPasswordRequestSchema = z.object({ email }).strict();
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>;

/** POST /api/auth/reset-password */
export const ResetPasswordRequestSchema = z.object({ token, new_password: newPassword }).strict();
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

/** PATCH /api/user/profile: name and email required (SPEC §5). */
export const UpdateProfileRequestSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(100),
    email,
    bio: optionalText(2000),
    website: optionalText(300).refine((value) => value === null || /^https?:\/\/[^\s]+\.[^\s]+$/i.test(value), 'Enter a full URL starting with http:// or https://'),
    phone: optionalText(40),
    location: optionalText(120),
  })
  .strict();
export type UpdateProfileRequest = z.input<typeof UpdateProfileRequestSchema>;
export type UpdateProfile = z.output<typeof UpdateProfileRequestSchema>;

/** PATCH /api/user/password */
export const ChangePasswordRequestSchema = z
  .object({ current_password: z.string().min(1, 'Current password is required').max(1024), new_password: newPassword })
  .strict();
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

/** PATCH /api/user/password answers with a fresh token: every other session has ended. */
export const ChangePasswordResponseSchema = MessageResponseSchema.extend({ access_token: z.string() });
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;

/** auth.session_state (the gateway's token check): the account whose token is checked. */
export const SessionStateRequestSchema = z.object({ user_id: z.uuid() });

/** What the gateway needs to know to accept a token: the account's current version and status. */
export const SessionStateSchema = z.strictObject({
  token_version: z.number().int(),
  status: z.enum(['active', 'suspended', 'deleted']),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

export const FORGOT_PASSWORD_MESSAGE = 'If an account with that email exists, a password reset link has been sent.';
