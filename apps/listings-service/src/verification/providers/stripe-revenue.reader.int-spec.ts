import { monthlyNetRevenue } from '@market/domain';
import { StripeChargesStandIn } from '../sandbox/stripe-charges.stand-in';
import type { StandInAddress } from '../sandbox/stand-in-server';
import { StripeRevenueReader } from './stripe-revenue.reader';
import { ProviderRefused, ProviderUnavailable } from './verification-sources.port';

// The revenue reader through the real Stripe SDK against the charges stand-in (ADR 0084).
const TIMEOUT_MS = 400;
const KEY = 'rk_test_51StandInRevenueKeyAbcdEfgh0123';
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The error a call failed with, asserting it never quotes the key or token anywhere it could be shown or logged. */
async function failure(call: Promise<unknown>, secret: string): Promise<Error> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(Error);
  for (const text of [error.message, String(error.stack), JSON.stringify(error), String(error.cause ?? '')]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(-12));
  }
  return error;
}

describe('StripeRevenueReader against the Stripe stand-in', () => {
  const stripe = new StripeChargesStandIn();
  let address: StandInAddress;
  let reader: StripeRevenueReader;

  beforeAll(async () => {
    stripe.slowMs = 10_000;
    address = await stripe.start();
    reader = new StripeRevenueReader({ ...address, timeoutMs: TIMEOUT_MS });
  });
  afterAll(() => stripe.stop());
  beforeEach(() => {
    stripe.accounts.clear();
    stripe.calls.length = 0;
  });

  it('reads every charge since the date across pages of 100, with the key on every page', async () => {
    const since = new Date('2025-01-01T00:00:00Z');
    // 230 charges from the date on, 20 before it; a few share a second, as busy accounts' charges do.
    const charges = [
      ...Array.from({ length: 20 }, (_, i) => ({ amount: 100, created: at('2024-06-01T00:00:00Z') + i * 3600 })),
      ...Array.from({ length: 230 }, (_, i) => ({ amount: 1000 + i, created: at('2025-01-01T00:00:00Z') + Math.floor(i / 2) * 3600 })),
    ];
    stripe.addAccount(KEY, charges);

    const { charges: rows } = await reader.charges(KEY, since);

    expect(rows).toHaveLength(230);
    expect(new Set(rows.map((row) => row.amount_cents)).size).toBe(230);
    expect(rows.every((row) => row.created_at >= since)).toBe(true);
    // Newest first, as Stripe lists them.
    expect(rows[0].created_at.getTime()).toBeGreaterThanOrEqual(rows[229].created_at.getTime());
    expect(stripe.calls).toHaveLength(3);
    expect(stripe.calls.map((call) => call.key)).toEqual([KEY, KEY, KEY]);
    expect(stripe.calls.map((call) => call.params.limit)).toEqual(['100', '100', '100']);
    expect(stripe.calls.every((call) => call.params['created[gte]'] === String(at('2025-01-01T00:00:00Z')))).toBe(true);
    expect(stripe.calls[0].params.starting_after).toBeUndefined();
    expect(stripe.calls[1].params.starting_after).toMatch(/^ch_/);
    expect(stripe.calls[2].params.starting_after).toMatch(/^ch_/);
  });

  it('carries captures, refunds, statuses and currencies through as the revenue rules read them', async () => {
    const march = (day: number) => at(`2025-03-${String(day).padStart(2, '0')}T12:00:00Z`);
    stripe.addAccount(KEY, [
      { amount: 10_000, created: march(1), calculated_statement_descriptor: 'OLDER NAME' },
      { amount: 5_000, amount_refunded: 1_500, created: march(2) },
      { amount: 2_000, amount_refunded: 2_000, created: march(3) },
      // A hold captured in part, and a hold released uncaptured (Stripe marks it refunded in full).
      { amount: 4_000, amount_captured: 3_000, created: march(4) },
      { amount: 7_000, amount_captured: 0, amount_refunded: 7_000, created: march(5) },
      { amount: 9_000, status: 'failed', created: march(6) },
      { amount: 3_333, currency: 'EUR', created: march(7), calculated_statement_descriptor: 'SITE.EXAMPLE' },
    ]);

    const { charges: rows, account_label } = await reader.charges(KEY, new Date('2025-01-01T00:00:00Z'));

    expect(account_label).toBe('SITE.EXAMPLE');
    expect(rows).toEqual([
      { amount_cents: 3_333, refunded_cents: 0, created_at: new Date('2025-03-07T12:00:00Z'), succeeded: true, currency: 'eur' },
      { amount_cents: 0, refunded_cents: 0, created_at: new Date('2025-03-06T12:00:00Z'), succeeded: false, currency: 'usd' },
      { amount_cents: 0, refunded_cents: 7_000, created_at: new Date('2025-03-05T12:00:00Z'), succeeded: true, currency: 'usd' },
      { amount_cents: 3_000, refunded_cents: 0, created_at: new Date('2025-03-04T12:00:00Z'), succeeded: true, currency: 'usd' },
      { amount_cents: 2_000, refunded_cents: 2_000, created_at: new Date('2025-03-03T12:00:00Z'), succeeded: true, currency: 'usd' },
      { amount_cents: 5_000, refunded_cents: 1_500, created_at: new Date('2025-03-02T12:00:00Z'), succeeded: true, currency: 'usd' },
      { amount_cents: 10_000, refunded_cents: 0, created_at: new Date('2025-03-01T12:00:00Z'), succeeded: true, currency: 'usd' },
    ]);
    const revenue = monthlyNetRevenue(rows, new Date('2025-06-15T00:00:00Z'));
    expect(revenue.months.find((m) => m.month === '2025-03')?.value).toBe(10_000 + 3_500 + 0 + 3_000 + 0);
    expect(revenue.other_currency).toBe(1);
  });

  it('answers no charges and no label for an account without charges since the date', async () => {
    stripe.addAccount(KEY, [{ amount: 500, created: at('2020-01-01T00:00:00Z'), calculated_statement_descriptor: 'OLD' }]);
    await expect(reader.charges(KEY, new Date('2025-01-01T00:00:00Z'))).resolves.toEqual({ charges: [], account_label: null });
  });

  it('refuses a key Stripe does not know, or no longer accepts, as revoked', async () => {
    const unknown = await failure(reader.charges(KEY, new Date()), KEY);
    expect(unknown).toBeInstanceOf(ProviderRefused);
    expect((unknown as ProviderRefused).kind).toBe('revoked');

    stripe.addAccount(KEY, [], 'revoked');
    const revoked = await failure(reader.charges(KEY, new Date()), KEY);
    expect(revoked).toMatchObject({ kind: 'revoked' });
  });

  it('refuses a key without Charges: Read as a missing permission', async () => {
    stripe.addAccount(KEY, [{ amount: 100, created: at('2025-02-01T00:00:00Z') }], 'no_permission');
    const error = await failure(reader.charges(KEY, new Date('2025-01-01T00:00:00Z')), KEY);
    expect(error).toBeInstanceOf(ProviderRefused);
    expect(error).toMatchObject({ kind: 'permission', message: expect.stringContaining('Charges: Read') });
  });

  it('refuses a malformed key before sending it anywhere', async () => {
    const bad = `${KEY}\r\nX-Injected: 1`;
    const error = await failure(reader.charges(bad, new Date()), KEY);
    expect(error).toMatchObject({ kind: 'invalid' });
    await expect(reader.charges('', new Date())).rejects.toMatchObject({ kind: 'invalid' });
    expect(stripe.requests).toBe(0);
  });

  it('gives up on a slow Stripe within its timeout, as unavailable', async () => {
    stripe.addAccount(KEY, [{ amount: 100, created: at('2025-02-01T00:00:00Z') }], 'slow');
    const started = Date.now();
    const error = await failure(reader.charges(KEY, new Date('2025-01-01T00:00:00Z')), KEY);
    const elapsed = Date.now() - started;

    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error.message).toMatch(/in time/);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(stripe.slowMs / 4);
    // Not retried: one request.
    expect(stripe.requests).toBe(1);
  });

  it.each(['status_500', 'malformed_json'] as const)('reports a broken Stripe (%s) as unavailable, without retrying', async (kind) => {
    stripe.brokenAs = kind;
    stripe.addAccount(KEY, [{ amount: 100, created: at('2025-02-01T00:00:00Z') }], 'broken');
    const error = await failure(reader.charges(KEY, new Date('2025-01-01T00:00:00Z')), KEY);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(stripe.requests).toBe(1);
  });

  it('reports an unreachable Stripe as unavailable', async () => {
    const gone = new StripeChargesStandIn();
    const where = await gone.start();
    await gone.stop();
    const offline = new StripeRevenueReader({ ...where, timeoutMs: TIMEOUT_MS });
    const error = await failure(offline.charges(KEY, new Date()), KEY);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error.message).toMatch(/reached/);
  });
});
