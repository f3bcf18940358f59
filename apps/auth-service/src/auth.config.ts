import { z } from 'zod';
import { secretSchema } from '@market/server-kit';
import { parseEnv, serviceEnv } from '@market/server-kit';

/** Variables the auth service reads; parsed once at start. */
export const authEnv = {
  ...serviceEnv,
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  JWT_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 3600).default(24 * 3600),
  ADMIN_EMAIL: z.email().optional(),
  // Creates the first admin when there is none; never resets a password (ADR 0031). No placeholder, 12+ characters.
  ADMIN_PASSWORD: secretSchema('ADMIN_PASSWORD').optional(),
};
export type AuthConfig = z.infer<z.ZodObject<typeof authEnv>>;
export const AUTH_CONFIG = Symbol('AUTH_CONFIG');

/** Reads the auth service configuration from the environment, exiting with one line on a bad value. */
export function loadAuthConfig(): AuthConfig {
  return parseEnv(authEnv);
}
