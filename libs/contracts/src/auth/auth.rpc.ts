import { defineRpc } from '../rpc';
import { EmptyRequestSchema, IdRequestSchema, MessageResponseSchema } from '../common.schemas';
import { AdminUpdateUserMessageSchema, AdminUsersQuerySchema, ImpersonationResponseSchema, UserListResponseSchema, UserStatsSchema } from '../admin/admin.schemas';
import {
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  ForgotPasswordRequestSchema,
  ResetPasswordRequestSchema,
  SessionStateRequestSchema,
  SessionStateSchema,
  UndoEmailChangeRequestSchema,
  UpdateProfileRequestSchema,
  UserSessionsResponseSchema,
  VerifyEmailQuerySchema,
} from './account.schemas';
import { LoginMessageSchema, RegisterRequestSchema } from './auth.schemas';
import {
  LoginResponseSchema,
  PublicProfilesResponseSchema,
  ActiveProfileResponseSchema,
  UsernameRequestSchema,
  RegisterResponseSchema,
  UserContactsResponseSchema,
  UserIdsRequestSchema,
  UserSchema,
} from './user.dto';

/** auth-service's request subjects. */
export const AUTH_RPC = {
  register: defineRpc('auth.register', RegisterRequestSchema, RegisterResponseSchema),
  login: defineRpc('auth.login', LoginMessageSchema, LoginResponseSchema),
  /** Ends the caller's own session at once, on every process (ADR 0030). */
  logout: defineRpc('auth.logout', EmptyRequestSchema, MessageResponseSchema),
  /** The caller's live login sessions. */
  listSessions: defineRpc('auth.sessions.list', EmptyRequestSchema, UserSessionsResponseSchema),
  /** Ends one of the caller's sessions. */
  revokeSession: defineRpc('auth.sessions.revoke', IdRequestSchema, MessageResponseSchema),
  /** Ends every session of the caller ("log out everywhere"), this one included. */
  revokeAllSessions: defineRpc('auth.sessions.revoke_all', EmptyRequestSchema, MessageResponseSchema),
  me: defineRpc('auth.me', EmptyRequestSchema, UserSchema),
  /** The gateway's token check (version and status of an account); never answered to a browser. */
  sessionState: defineRpc('auth.session_state', SessionStateRequestSchema, SessionStateSchema, { internal: true }),
  verifyEmail: defineRpc('auth.verify_email', VerifyEmailQuerySchema, MessageResponseSchema),
  resendVerification: defineRpc('auth.resend_verification', EmptyRequestSchema, MessageResponseSchema),
  forgotPassword: defineRpc('auth.forgot_password', ForgotPasswordRequestSchema, MessageResponseSchema),
  resetPassword: defineRpc('auth.reset_password', ResetPasswordRequestSchema, MessageResponseSchema),
  updateProfile: defineRpc('auth.update_profile', UpdateProfileRequestSchema, UserSchema),
  /** Restores the address an email change left, from the link mailed to it (ADR 0034). */
  undoEmailChange: defineRpc('auth.undo_email_change', UndoEmailChangeRequestSchema, MessageResponseSchema),
  changePassword: defineRpc('auth.change_password', ChangePasswordRequestSchema, ChangePasswordResponseSchema),
  /** Live accounts, for the admin overview (admin-service asks). */
  stats: defineRpc('auth.stats', EmptyRequestSchema, UserStatsSchema, { internal: true }),
  /** Users for the admin Users tab; admin-service adds their listing counts. */
  listUsers: defineRpc('auth.admin.list_users', AdminUsersQuerySchema, UserListResponseSchema, { internal: true }),
  updateUser: defineRpc('auth.admin.update_user', AdminUpdateUserMessageSchema, UserSchema),
  deleteUser: defineRpc('auth.admin.delete_user', IdRequestSchema, MessageResponseSchema),
  impersonate: defineRpc('auth.admin.impersonate', IdRequestSchema, ImpersonationResponseSchema),
  /** Public profile fields (username, name, verified) of some users, for seller cards. */
  publicProfiles: defineRpc('auth.public_profiles', UserIdsRequestSchema, PublicProfilesResponseSchema, { internal: true }),
  /** A live account's public profile by username, for a seller page (ADR 0083). */
  profileByUsername: defineRpc('auth.profile_by_username', UsernameRequestSchema, ActiveProfileResponseSchema, { internal: true }),
  /** Username and email of some users; services only, never routed by the gateway. */
  contacts: defineRpc('auth.contacts', UserIdsRequestSchema, UserContactsResponseSchema, { internal: true }),
};
