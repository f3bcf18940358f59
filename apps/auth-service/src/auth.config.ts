import { z } from 'zod';
import { secretSchema } from '@market/server-kit';
import { ConfigError, keyId, parseEnv, parsePrivateKey, parsePublicKeys, serviceEnv } from '@market/server-kit';
import { createPublicKey } from 'node:crypto';

/** Variables the auth service reads; parsed once at start. */
export const authEnv = {
  ...serviceEnv,
  // The one signing key (ADR 0030): EC P-256 in PEM; its public key must be among JWT_PUBLIC_KEYS.
  JWT_PRIVATE_KEY: z.string().superRefine((value, ctx) => {
    try {
      parsePrivateKey(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  }),
  JWT_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 3600).default(24 * 3600),
  ADMIN_EMAIL: z.email().optional(),
  // Creates the first admin when there is none; never resets a password (ADR 0031). No placeholder, 12+ characters.
  ADMIN_PASSWORD: secretSchema('ADMIN_PASSWORD').optional(),
  // Multiplies the per-account login quota as the gateway's RATE_LIMIT_SCALE does its own; 0 turns it off (benchmarks).
  RATE_LIMIT_SCALE: z.coerce.number().min(0).max(1000).default(1),
};
export type AuthConfig = z.infer<z.ZodObject<typeof authEnv>>;
export const AUTH_CONFIG = Symbol('AUTH_CONFIG');

/** Reads the auth service configuration from the environment, exiting with one line on a bad value. */
export function loadAuthConfig(): AuthConfig {
  const config = parseEnv(authEnv);
  try {
    checkSigningKey(config);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  return config;
}

/** The signing key's public half must be one every process verifies with, or no token would be accepted anywhere. */
export function checkSigningKey(config: Pick<AuthConfig, 'JWT_PRIVATE_KEY' | 'JWT_PUBLIC_KEYS'>): void {
  const kid = keyId(createPublicKey(parsePrivateKey(config.JWT_PRIVATE_KEY)));
  if (!parsePublicKeys(config.JWT_PUBLIC_KEYS).some((entry) => entry.kid === kid)) {
    throw new ConfigError('JWT_PRIVATE_KEY', `its public key (${kid}) is not among JWT_PUBLIC_KEYS`);
  }
}
