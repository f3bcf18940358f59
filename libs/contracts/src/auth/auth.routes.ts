import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { MessageResponseSchema, UuidSchema } from '../common.schemas';
import {
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  ForgotPasswordRequestSchema,
  ResetPasswordRequestSchema,
  UndoEmailChangeRequestSchema,
  UpdateProfileRequestSchema,
  UserSessionsResponseSchema,
  VerifyEmailQuerySchema,
} from './account.schemas';
import { LoginRequestSchema, RegisterRequestSchema } from './auth.schemas';
import { LoginResponseSchema, RegisterResponseSchema, UserSchema } from './user.dto';

/** Registration, login, the current user, email verification and password reset (D13, D15). */
export const AUTH_ROUTES = {
  register: defineRoute({
    method: 'post',
    path: '/auth/register',
    tag: 'auth',
    summary: 'Create an account',
    description:
      'Usernames and emails are unique regardless of case; the person must confirm they are 18 or older. A verification ' +
      'link is emailed; the account can log in at once. Refused (403) while the admin has closed registration. ' +
      'Rate limited per client address.',
    auth: 'public',
    body: RegisterRequestSchema,
    status: 201,
    reply: RegisterResponseSchema,
    errors: [403, 409, 429],
  }),
  login: defineRoute({
    method: 'post',
    path: '/auth/login',
    tag: 'auth',
    summary: 'Log in with a username or email and the password',
    description:
      'Answers a bearer token and the user. A wrong login or password is a 401 that does not say which; a suspended ' +
      'account is a 403. Rate limited per client address and per login.',
    auth: 'public',
    body: LoginRequestSchema,
    status: 200,
    reply: LoginResponseSchema,
    errors: [401, 403, 429],
  }),
  me: defineRoute({
    method: 'get',
    path: '/auth/me',
    tag: 'auth',
    summary: 'The signed-in user',
    description:
      'With an impersonation token, the user being acted as. `verified` is the seller badge an admin gives, `email_verified` the ' +
      "address check. 401 once the token's session has ended or the account is no longer active.",
    auth: 'user',
    status: 200,
    reply: UserSchema,
  }),
  verifyEmail: defineRoute({
    method: 'post',
    path: '/auth/verify-email',
    tag: 'auth',
    summary: "Verify the account's email with the token from the emailed link",
    description: 'A token works once, for 48 hours, and only while the account still has the email it was sent to.',
    auth: 'public',
    query: VerifyEmailQuerySchema,
    status: 200,
    reply: MessageResponseSchema,
    errors: [400, 429],
  }),
  resendVerification: defineRoute({
    method: 'post',
    path: '/auth/resend-verification',
    tag: 'auth',
    summary: "Email a new verification link to the signed-in user's address",
    description:
      '400 when the address is already verified. The new link works for 48 hours, like the first; links sent earlier keep working until they expire.',
    auth: 'user',
    status: 200,
    reply: MessageResponseSchema,
    errors: [400],
  }),
  forgotPassword: defineRoute({
    method: 'post',
    path: '/auth/forgot-password',
    tag: 'auth',
    summary: 'Email a password reset link',
    description: 'The same answer, in about the same time, whether or not an account has that email.',
    auth: 'public',
    body: ForgotPasswordRequestSchema,
    status: 200,
    reply: MessageResponseSchema,
    errors: [429],
  }),
  resetPassword: defineRoute({
    method: 'post',
    path: '/auth/reset-password',
    tag: 'auth',
    summary: 'Set a new password with the token from the emailed reset link',
    description: 'A token works once, for an hour; every session of the account ends.',
    auth: 'public',
    body: ResetPasswordRequestSchema,
    status: 200,
    reply: MessageResponseSchema,
    errors: [400, 429],
  }),
  undoEmailChange: defineRoute({
    method: 'post',
    path: '/auth/undo-email-change',
    tag: 'auth',
    summary: 'Undo an email change with the token from the link mailed to the old address',
    description:
      'A token works once, for 7 days (ADR 0034). The old address comes back, verified; every session of the account ' +
      'ends and its password stops working (choose a new one with forgot-password). A 409 when another account has ' +
      'taken the old address meanwhile. Rate limited per client address.',
    auth: 'public',
    body: UndoEmailChangeRequestSchema,
    status: 200,
    reply: MessageResponseSchema,
    errors: [400, 409, 429],
  }),
};

/** The signed-in user's own profile and password (SPEC §5). */
export const ACCOUNT_ROUTES = {
  logout: defineRoute({
    method: 'post',
    path: '/auth/logout',
    tag: 'auth',
    summary: 'Log out: this token stops working at once, on every server',
    description:
      "Ends only the calling token's session, with any impersonation started from it; the account's other sessions stay " +
      '(POST /user/sessions/revoke-all ends them). With an impersonation token it ends the impersonation, without the audit entry ' +
      'that POST /admin/stop-impersonation records.',
    auth: 'user',
    status: 200,
    reply: MessageResponseSchema,
  }),
  sessions: defineRoute({
    method: 'get',
    path: '/user/sessions',
    tag: 'account',
    summary: 'Your active login sessions: device, address, when it started and was last used',
    description:
      "Login sessions only, newest first, at most 100; impersonations of the account are not listed. `current` marks the calling token's " +
      'session; the last use is noted at most once a minute.',
    auth: 'user',
    status: 200,
    reply: UserSessionsResponseSchema,
  }),
  revokeSession: defineRoute({
    method: 'delete',
    path: '/user/sessions/{id}',
    tag: 'account',
    summary: 'Log out one of your sessions',
    description:
      "Only the caller's own sessions: another user's session id answers 404, like an unknown one. Its token stops working at once, with " +
      'any impersonation started from it; ending a session that already ended answers the same.',
    auth: 'user',
    params: z.object({ id: UuidSchema }),
    status: 200,
    reply: MessageResponseSchema,
    errors: [404],
  }),
  revokeAllSessions: defineRoute({
    method: 'post',
    path: '/user/sessions/revoke-all',
    tag: 'account',
    summary: 'Log out everywhere: every session of yours ends, this one included',
    description:
      'Impersonation sessions end too: those of the account and those the caller started. The token that made this call stops working ' +
      'as well, so the client must sign in again.',
    auth: 'user',
    status: 200,
    reply: MessageResponseSchema,
  }),
  updateProfile: defineRoute({
    method: 'patch',
    path: '/user/profile',
    tag: 'account',
    summary: "Save the signed-in user's profile",
    description:
      'Name and email are required. Changing the email needs `current_password` (422 without it, 400 when wrong) and ' +
      'cannot be done while impersonating; the new address is unverified until its link is opened, every other session ' +
      'ends, and the old address is mailed a link that undoes the change for 7 days (ADR 0034).',
    auth: 'user',
    body: UpdateProfileRequestSchema,
    status: 200,
    reply: UserSchema,
    errors: [400, 403, 409],
  }),
  changePassword: defineRoute({
    method: 'patch',
    path: '/user/password',
    tag: 'account',
    summary: 'Change the password, checking the current one',
    description: 'Every other session ends; the answer carries a fresh token for this one. Not allowed while impersonating.',
    auth: 'user',
    body: ChangePasswordRequestSchema,
    status: 200,
    reply: ChangePasswordResponseSchema,
    errors: [400, 403],
  }),
};
