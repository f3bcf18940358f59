import { z } from 'zod';
import type { PaymentProviderName } from '@market/contracts';
import { DEFAULT_ESCROW_CAPTURE_LEAD_HOURS } from '@market/domain';
import { ConfigError, domainProofEnv, domainProofSettings, parseEnv, secretSchema, serviceEnv, urlSchema, type ServiceConfig } from '@market/server-kit';

// An empty value (compose passes `${STRIPE_SECRET_KEY:-}` through) is the same as an unset one.
const unsetWhenEmpty = <S extends z.ZodType>(schema: S) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** Variables the billing service reads; parsed once at start. */
export const billingEnv = {
  ...serviceEnv,
  // Transfer verification looks at the bought site's domain (ADR 0040); NODE_ENV is the one declared below.
  ...domainProofEnv,
  // How often each replica marks unpaid invoices past their due date overdue (D10).
  INVOICE_SWEEP_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
  // How long a buy-now waits for its invoice (made from bid.accepted) before answering payment_setup_failed; kept
  // under the gateway's RPC_TIMEOUT_MS (5 s) so the buyer gets that answer rather than a 503.
  BUY_NOW_INVOICE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  // The site's public origin: checkout, success and cancel pages are addressed on it (ADR 0020).
  PUBLIC_URL: urlSchema(['http:', 'https:']).default('http://localhost:3000'),
  // The card provider (D12, ADR 0033): `stripe` or `sandbox`. Required with NODE_ENV=production; elsewhere unset means
  // the sandbox unless both Stripe keys are set.
  PAYMENTS_PROVIDER: unsetWhenEmpty(z.enum(['stripe', 'sandbox'], "must be 'stripe' or 'sandbox'")),
  NODE_ENV: z.string().default('development'),
  // Stripe's keys (ADR 0023); the secret ones are held to the secrets policy (ADR 0031).
  STRIPE_SECRET_KEY: unsetWhenEmpty(secretSchema('STRIPE_SECRET_KEY')),
  STRIPE_PUBLISHABLE_KEY: unsetWhenEmpty(z.string().min(1)),
  // Verifies /api/webhooks/stripe signatures; required when Stripe is selected.
  STRIPE_WEBHOOK_SECRET: unsetWhenEmpty(secretSchema('STRIPE_WEBHOOK_SECRET')),
  // The Connect endpoint's own signing secret (account.updated of sellers' accounts comes there, ADR 0063); optional:
  // when unset, only STRIPE_WEBHOOK_SECRET is tried.
  STRIPE_CONNECT_WEBHOOK_SECRET: unsetWhenEmpty(secretSchema('STRIPE_CONNECT_WEBHOOK_SECRET')),
  // Where the SDK sends API calls instead of api.stripe.com (a local stand-in in tests, or a proxy).
  STRIPE_API_HOST: z.string().min(1).optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  // Buy-now answers with a hosted checkout (SPEC §4's first outcome) instead of the invoice fallback; the web serves
  // the sandbox's checkout page (ADR 0020, 0022). 'false' keeps the invoice fallback.
  BUY_NOW_CHECKOUT: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  // How often each replica cancels card holds past their capture deadline (D11).
  HOLD_SWEEP_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
  // How long a buyer has to get the card authorised before the sale lapses (ADR 0043): whole hours, 1 to 336 (14 days).
  PAYMENT_WINDOW_HOURS: z.coerce.number().int().min(1).max(336).default(48),
  // How often each replica lapses unpaid invoices past their pay-by moment (ADR 0043).
  PAYMENT_WINDOW_SWEEP_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
  // Held funds are captured into escrow at the latest this many whole hours before the card hold's 7-day deadline (D22).
  ESCROW_CAPTURE_LEAD_HOURS: z.coerce.number().int().min(1).max(96).default(24),
  // How often one replica captures due holds, releases funds whose inspection period ended and sends payouts (D22).
  PAYOUT_SWEEP_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
  // How often the ledger is reconciled with the provider's balance transactions (daily), and how far back it looks.
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1_000).max(7 * 24 * 3_600_000).default(24 * 3_600_000),
  RECONCILE_WINDOW_DAYS: z.coerce.number().int().min(1).max(400).default(35),
  // Tests only, refused with NODE_ENV=production: a JSON file {"offset_ms": n} whose offset is added to billing's clock,
  // so a journey can let the inspection period pass without waiting (ADR 0063).
  BILLING_CLOCK_FILE: z.string().min(1).optional(),
};
export type BillingConfig = z.infer<z.ZodObject<typeof billingEnv>>;
export const BILLING_CONFIG = Symbol('BILLING_CONFIG');

/** Defaults when a caller built only the common service config (in-process test stacks). */
export const DEFAULT_INVOICE_SWEEP_MS = 60_000;
export const DEFAULT_BUY_NOW_INVOICE_WAIT_MS = 3_000;
export const DEFAULT_HOLD_SWEEP_MS = 60_000;
export const DEFAULT_PAYMENT_WINDOW_HOURS = 48;

/** Reads the billing service configuration from the environment, exiting with one line on a bad value. */
export function loadBillingConfig(): BillingConfig {
  const config = parseEnv(billingEnv);
  try {
    paymentProviderOf(config);
    domainProofSettings(config);
    if (config.BILLING_CLOCK_FILE && config.NODE_ENV === 'production') throw new ConfigError('BILLING_CLOCK_FILE', 'is for tests only and is refused with NODE_ENV=production');
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  return config;
}

type ProviderChoice = Pick<BillingConfig, 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY'> &
  Partial<Pick<BillingConfig, 'STRIPE_WEBHOOK_SECRET' | 'PAYMENTS_PROVIDER' | 'NODE_ENV'>>;

/**
 * The payment provider, chosen once at start (D12, ADR 0033). PAYMENTS_PROVIDER names it, and with NODE_ENV=production
 * it must: the sandbox never runs a production site by accident. Unset elsewhere: the sandbox unless both Stripe keys
 * are set. Stripe needs both keys and the webhook secret. A missing value throws a ConfigError naming the variable.
 */
export function paymentProviderOf(config: ProviderChoice): PaymentProviderName {
  const chosen = config.PAYMENTS_PROVIDER;
  if (!chosen && config.NODE_ENV === 'production') {
    throw new ConfigError('PAYMENTS_PROVIDER', "is required when NODE_ENV=production: 'stripe', or 'sandbox' for a test site where no real money moves");
  }
  if (chosen === 'sandbox') return 'sandbox';
  const secret = Boolean(config.STRIPE_SECRET_KEY);
  const publishable = Boolean(config.STRIPE_PUBLISHABLE_KEY);
  if (chosen === 'stripe') {
    for (const [name, set] of [['STRIPE_SECRET_KEY', secret], ['STRIPE_PUBLISHABLE_KEY', publishable], ['STRIPE_WEBHOOK_SECRET', Boolean(config.STRIPE_WEBHOOK_SECRET)]] as const) {
      if (!set) throw new ConfigError(name, 'is required when PAYMENTS_PROVIDER=stripe');
    }
    return 'stripe';
  }
  if (!secret && !publishable) return 'sandbox';
  if (!secret) throw new ConfigError('STRIPE_SECRET_KEY', 'is required when STRIPE_PUBLISHABLE_KEY is set');
  if (!publishable) throw new ConfigError('STRIPE_PUBLISHABLE_KEY', 'is required when STRIPE_SECRET_KEY is set');
  if (!config.STRIPE_WEBHOOK_SECRET) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required when the Stripe keys are set');
  return 'stripe';
}

/** The full billing config from one that may lack the billing-only values. */
export function withBillingDefaults(config: ServiceConfig & Partial<BillingConfig>): BillingConfig {
  return {
    ...config,
    DOMAIN_PROOF_TIMEOUT_MS: config.DOMAIN_PROOF_TIMEOUT_MS ?? 3_000,
    DOMAIN_PROOF_HTTP_SCHEME: config.DOMAIN_PROOF_HTTP_SCHEME ?? 'https',
    INVOICE_SWEEP_MS: config.INVOICE_SWEEP_MS ?? DEFAULT_INVOICE_SWEEP_MS,
    BUY_NOW_INVOICE_WAIT_MS: config.BUY_NOW_INVOICE_WAIT_MS ?? DEFAULT_BUY_NOW_INVOICE_WAIT_MS,
    PUBLIC_URL: config.PUBLIC_URL ?? 'http://localhost:3000',
    PAYMENTS_PROVIDER: config.PAYMENTS_PROVIDER,
    NODE_ENV: config.NODE_ENV ?? 'development',
    STRIPE_SECRET_KEY: config.STRIPE_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: config.STRIPE_PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: config.STRIPE_WEBHOOK_SECRET,
    STRIPE_API_HOST: config.STRIPE_API_HOST,
    STRIPE_API_PORT: config.STRIPE_API_PORT,
    STRIPE_API_PROTOCOL: config.STRIPE_API_PROTOCOL,
    HOLD_SWEEP_MS: config.HOLD_SWEEP_MS ?? DEFAULT_HOLD_SWEEP_MS,
    PAYMENT_WINDOW_HOURS: config.PAYMENT_WINDOW_HOURS ?? DEFAULT_PAYMENT_WINDOW_HOURS,
    PAYMENT_WINDOW_SWEEP_MS: config.PAYMENT_WINDOW_SWEEP_MS ?? 60_000,
    BUY_NOW_CHECKOUT: config.BUY_NOW_CHECKOUT ?? false,
    STRIPE_CONNECT_WEBHOOK_SECRET: config.STRIPE_CONNECT_WEBHOOK_SECRET,
    ESCROW_CAPTURE_LEAD_HOURS: config.ESCROW_CAPTURE_LEAD_HOURS ?? DEFAULT_ESCROW_CAPTURE_LEAD_HOURS,
    PAYOUT_SWEEP_MS: config.PAYOUT_SWEEP_MS ?? 60_000,
    RECONCILE_INTERVAL_MS: config.RECONCILE_INTERVAL_MS ?? 24 * 3_600_000,
    RECONCILE_WINDOW_DAYS: config.RECONCILE_WINDOW_DAYS ?? 35,
    BILLING_CLOCK_FILE: config.BILLING_CLOCK_FILE,
  };
}
