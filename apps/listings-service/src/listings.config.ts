import { z } from 'zod';
import { ConfigError, secretSchema, urlSchema } from '@market/server-kit';

// An empty value (compose passes `${NAME:-}` through) is the same as an unset one.
const unsetWhenEmpty = <S extends z.ZodType>(schema: S) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** listings-service's own settings, beside the shared service ones. */
export const listingsEnv = {
  /** How often the ending-soon sweep looks for watched auctions that end within the day (ADR 0074). */
  WATCH_REMINDER_SWEEP_MS: z.coerce.number().int().min(500).max(3_600_000).default(60_000),
  /** How long the words of live listings' titles are kept before a search that matched nothing reads them again (ADR 0080). */
  SEARCH_VOCABULARY_MAX_AGE_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  /** Browse answered from the in-memory index (ADR 0081), or `off`: every browse from PostgreSQL, as before it. */
  BROWSE_INDEX: z.enum(['memory', 'off']).default('memory'),
  /** Sellers may verify revenue with a Stripe restricted key (D24, ADR 0084): `on`, or `off` ("not set up here"). */
  STRIPE_VERIFICATION: z.enum(['on', 'off']).default('off'),
  /** Where the Stripe SDK's reads go instead of api.stripe.com (a stand-in in tests, or a proxy). */
  STRIPE_API_HOST: unsetWhenEmpty(z.string().min(1)),
  STRIPE_API_PORT: unsetWhenEmpty(z.coerce.number().int().min(1).max(65_535)),
  STRIPE_API_PROTOCOL: unsetWhenEmpty(z.enum(['http', 'https'])),
  /** The Google OAuth client that reads GA4 with analytics.readonly (ADR 0084); GA4 is set up here when both are set. */
  GOOGLE_OAUTH_CLIENT_ID: unsetWhenEmpty(z.string().min(1)),
  GOOGLE_OAUTH_CLIENT_SECRET: unsetWhenEmpty(secretSchema('GOOGLE_OAUTH_CLIENT_SECRET')),
  /** Where Google's consent page, token and revocation endpoints and Analytics Data API are, when not Google's own (a stand-in). */
  GOOGLE_OAUTH_AUTHORIZE_URL: unsetWhenEmpty(urlSchema(['http:', 'https:'])),
  GOOGLE_OAUTH_TOKEN_URL: unsetWhenEmpty(urlSchema(['http:', 'https:'])),
  GOOGLE_OAUTH_REVOKE_URL: unsetWhenEmpty(urlSchema(['http:', 'https:'])),
  GA4_DATA_API_URL: unsetWhenEmpty(urlSchema(['http:', 'https:'])),
  /**
   * npm start's sandbox (ADR 0084): listings-service runs the Stripe and Google stand-ins itself and reads any source a
   * real provider is not set up for from them, every figure TEST MODE. Refused in production.
   */
  VERIFICATION_SANDBOX: z.enum(['on', 'off']).default('off'),
  /** The providers are stand-ins: every figure they give is marked TEST MODE (a Stripe rk_test_ key's always are). */
  VERIFICATION_TEST_MODE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** How often a connected source is read again while its listing is live (daily, D24): at most a day, inside the 48 hours a figure stays current. */
  VERIFICATION_REFRESH_MS: z.coerce.number().int().min(1000).max(86_400_000).default(86_400_000),
  /** How long one provider read may take before it counts as failed (the last good snapshot stays). */
  VERIFICATION_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
};
export type ListingsConfig = z.infer<z.ZodObject<typeof listingsEnv>>;
export const LISTINGS_CONFIG = Symbol('LISTINGS_CONFIG');

/** Refuses settings that must never reach production (ADR 0084): the sandbox, and figures marked TEST MODE. Throws a ConfigError naming it. */
export function checkVerificationSettings(config: Pick<ListingsConfig, 'VERIFICATION_SANDBOX' | 'VERIFICATION_TEST_MODE'>, nodeEnv = process.env.NODE_ENV): void {
  if (nodeEnv !== 'production') return;
  if (config.VERIFICATION_SANDBOX === 'on') {
    throw new ConfigError('VERIFICATION_SANDBOX', 'must be off in production: its figures come from stand-ins, not from Stripe or Google');
  }
  if (config.VERIFICATION_TEST_MODE) {
    throw new ConfigError('VERIFICATION_TEST_MODE', 'must be false in production: it accepts Stripe test-mode keys and marks every figure TEST MODE');
  }
}
