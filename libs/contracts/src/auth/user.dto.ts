import { z } from 'zod';
import { IsoDateTimeSchema } from '../common.schemas';

export const UserStatusSchema = z.enum(['active', 'suspended']);
export type UserStatus = z.infer<typeof UserStatusSchema>;

/** The user as the API returns it (SPEC §3 User). */
export const UserSchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  role: z.enum(['admin', 'regular']),
  bio: z.string().nullable(),
  website: z.string().nullable(),
  phone: z.string().nullable(),
  location: z.string().nullable(),
  /** Seller verification by an admin (the check mark), not email verification (D13). */
  verified: z.boolean(),
  email_verified: z.boolean(),
  status: UserStatusSchema,
  created_at: IsoDateTimeSchema,
}).meta({ id: 'User' });
export type UserDto = z.infer<typeof UserSchema>;

/** POST /api/auth/login answer. */
export const LoginResponseSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user: UserSchema,
}).meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** POST /api/auth/register answer. */
export const RegisterResponseSchema = z.strictObject({
  message: z.string(),
  user: UserSchema,
}).meta({ id: 'RegisterResponse' });
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

/** auth.public_profiles and auth.contacts: the users asked about (services only). */
export const UserIdsRequestSchema = z.object({ user_ids: z.array(z.uuid()).max(1000) });

/** Public profile fields of users, for seller cards and admin rows (auth.public_profiles). */
export const PublicProfileSchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  name: z.string().nullable(),
  verified: z.boolean(),
});
export type PublicProfile = z.infer<typeof PublicProfileSchema>;

/** auth.profile_by_username: a seller page's account (ADR 0083). */
export const UsernameRequestSchema = z.strictObject({ username: z.string().trim().min(1).max(100) });

/** A live account by username; null for an unknown, suspended or deleted one, which a seller page never tells apart. */
export const ActiveProfileResponseSchema = z.strictObject({
  profile: PublicProfileSchema.extend({ member_since: IsoDateTimeSchema }).nullable(),
});

/** auth.public_profiles answer: the profiles of the users that exist (deleted ones included, scrubbed). */
export const PublicProfilesResponseSchema = z.strictObject({ profiles: z.array(PublicProfileSchema) });

/** Where to reach a user (auth.contacts); services only, never routed by the gateway. */
export const UserContactSchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  email: z.string(),
  /** Deleted accounts are never listed; a suspended one still gets the mail about its money. */
  status: UserStatusSchema,
});
export type UserContact = z.infer<typeof UserContactSchema>;

/** auth.contacts answer: live users only. */
export const UserContactsResponseSchema = z.strictObject({ contacts: z.array(UserContactSchema) });
