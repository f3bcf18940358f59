import { ConfigError, parseEnvOrThrow } from '@market/server-kit';
import { billingEnv, paymentProviderOf } from './billing.config';

const KEYS = { STRIPE_SECRET_KEY: 'sk_test_51QxZr8Hn2Kd7Lm4Pq', STRIPE_PUBLISHABLE_KEY: 'pk_test_51QxZr8Hn2Kd7Lm4Pq', STRIPE_WEBHOOK_SECRET: 'whsec_Jr8cN2xQm5Tz7Lp3Wv' };
// The variables the choice reads, parsed as the billing service parses them (the rest of its config is not the point).
const { PAYMENTS_PROVIDER, NODE_ENV, STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET } = billingEnv;
const paymentsEnv = { PAYMENTS_PROVIDER, NODE_ENV, STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET };
const provider = (env: Record<string, string>) => paymentProviderOf(parseEnvOrThrow(paymentsEnv, env));

describe('PAYMENTS_PROVIDER (ADR 0033)', () => {
  it('with NODE_ENV=production, runs the sandbox only when it is named, and refuses to guess', () => {
    expect(() => provider({ NODE_ENV: 'production' })).toThrow(
      new ConfigError('PAYMENTS_PROVIDER', "is required when NODE_ENV=production: 'stripe', or 'sandbox' for a test site where no real money moves"),
    );
    expect(() => provider({ NODE_ENV: 'production', ...KEYS })).toThrow(/^Invalid configuration: PAYMENTS_PROVIDER: is required/);
    expect(() => provider({ NODE_ENV: 'production', PAYMENTS_PROVIDER: '' })).toThrow(/^Invalid configuration: PAYMENTS_PROVIDER: is required/);
    expect(provider({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'sandbox' })).toBe('sandbox');
    expect(provider({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'stripe', ...KEYS })).toBe('stripe');
  });

  it('elsewhere keeps the old default: the sandbox unless both Stripe keys are set', () => {
    expect(provider({})).toBe('sandbox');
    expect(provider({ NODE_ENV: 'test' })).toBe('sandbox');
    expect(provider(KEYS)).toBe('stripe');
    // compose passes unset keys through as empty values
    expect(provider({ STRIPE_SECRET_KEY: '', STRIPE_PUBLISHABLE_KEY: '', STRIPE_WEBHOOK_SECRET: '' })).toBe('sandbox');
    expect(provider({ PAYMENTS_PROVIDER: 'sandbox', ...KEYS })).toBe('sandbox');
  });

  it('names what stripe lacks, and refuses an unknown provider', () => {
    expect(() => provider({ PAYMENTS_PROVIDER: 'stripe' })).toThrow(new ConfigError('STRIPE_SECRET_KEY', 'is required when PAYMENTS_PROVIDER=stripe'));
    expect(() => provider({ PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: KEYS.STRIPE_SECRET_KEY })).toThrow(/^Invalid configuration: STRIPE_PUBLISHABLE_KEY: /);
    const { STRIPE_WEBHOOK_SECRET: _unused, ...withoutWebhook } = KEYS;
    expect(() => provider({ PAYMENTS_PROVIDER: 'stripe', ...withoutWebhook })).toThrow(/^Invalid configuration: STRIPE_WEBHOOK_SECRET: is required when PAYMENTS_PROVIDER=stripe$/);
    expect(() => provider({ PAYMENTS_PROVIDER: 'paypal' })).toThrow("Invalid configuration: PAYMENTS_PROVIDER: must be 'stripe' or 'sandbox'");
  });

  it('holds the Stripe secrets to the secrets policy (ADR 0031)', () => {
    expect(() => provider({ ...KEYS, STRIPE_SECRET_KEY: 'sk_test_your_secret_key_here' })).toThrow(/^Invalid configuration: STRIPE_SECRET_KEY: is a placeholder/);
    expect(() => provider({ ...KEYS, STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toThrow(/^Invalid configuration: STRIPE_WEBHOOK_SECRET: must be at least 16 characters/);
  });
});

describe('PAYMENT_WINDOW_HOURS (ADR 0043)', () => {
  const windowEnv = { PAYMENT_WINDOW_HOURS: billingEnv.PAYMENT_WINDOW_HOURS };
  it('defaults to 48 hours and takes whole hours from 1 to 336', () => {
    expect(parseEnvOrThrow(windowEnv, {}).PAYMENT_WINDOW_HOURS).toBe(48);
    expect(parseEnvOrThrow(windowEnv, { PAYMENT_WINDOW_HOURS: '24' }).PAYMENT_WINDOW_HOURS).toBe(24);
  });
  it('refuses a bad value naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'two days', '337']) {
      expect(() => parseEnvOrThrow(windowEnv, { PAYMENT_WINDOW_HOURS: bad })).toThrow(/^Invalid configuration: PAYMENT_WINDOW_HOURS: /);
    }
  });
});
