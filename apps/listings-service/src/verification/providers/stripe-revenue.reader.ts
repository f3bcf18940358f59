import Stripe from 'stripe';
import { ProviderRefused, ProviderUnavailable, type ChargeRow, type ReadLimits, type RevenueReader } from './verification-sources.port';

/** Where the reader finds Stripe (a stand-in or a proxy in tests) and how long one page may take. */
export interface StripeRevenueReaderOptions {
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  timeoutMs: number;
}

// What a Stripe API key looks like: it goes into the Authorization header, so anything else is refused before it is sent.
const KEY_SHAPE = /^[A-Za-z0-9_]{8,255}$/;
const PAGE_SIZE = 100;

/**
 * The revenue reader on Stripe's official SDK (ADR 0084): the seller's restricted key is passed per call
 * (`charges.list(params, { apiKey })`), so the client holds no key of ours, and the SDK's auto-pagination follows
 * `starting_after` with the same key. Stripe's refusals become ProviderRefused and everything else ProviderUnavailable,
 * with our own messages: Stripe's own quote part of the key.
 */
export class StripeRevenueReader implements RevenueReader {
  private readonly stripe: Stripe;

  constructor(options: StripeRevenueReaderOptions) {
    this.stripe = new Stripe(
      // No key of ours: the SDK takes an empty key with an authenticator, and this one adds nothing, so only the
      // seller's key passed per call authenticates (a call without it is refused by Stripe, 401).
      '',
      {
        authenticator: async () => undefined,
        // No retry: a connection check is the seller waiting, and the daily refresh keeps the last good snapshot
        // (ADR 0084) and tries again the next day.
        maxNetworkRetries: 0,
        timeout: options.timeoutMs,
        telemetry: false,
        ...(options.host ? { host: options.host } : {}),
        ...(options.port ? { port: options.port } : {}),
        ...(options.protocol ? { protocol: options.protocol } : {}),
      },
    );
  }

  /** Every charge created at or after `since`, newest first as Stripe lists them, and the newest descriptor a charge gives. */
  async charges(key: string, since: Date, limits: ReadLimits = NO_LIMITS): Promise<{ charges: ChargeRow[]; account_label: string | null }> {
    if (!KEY_SHAPE.test(key)) throw new ProviderRefused('invalid', 'This is not a Stripe API key. Paste the restricted key as Stripe shows it.');
    const rows: ChargeRow[] = [];
    let label: string | null = null;
    try {
      const list = this.stripe.charges.list({ created: { gte: Math.floor(since.getTime() / 1000) }, limit: PAGE_SIZE }, { apiKey: key });
      // Leaving the loop ends the auto-pagination: no page is asked for after a limit is passed.
      for await (const charge of list) {
        if (rows.length >= limits.maxCharges) throw new ProviderUnavailable(`The account has more than ${limits.maxCharges} charges in 12 months: more than we read.`);
        if (rows.length % PAGE_SIZE === 0 && Date.now() > limits.deadline) throw new ProviderUnavailable('Stripe did not give every charge in time.');
        rows.push(chargeRow(charge));
        // Listed newest first: the first descriptor met is the newest charge's.
        label ??= charge.calculated_statement_descriptor || null;
      }
    } catch (error) {
      throw stripeFailure(error);
    }
    return { charges: rows, account_label: label };
  }

  /** One charge, newest first: a key that can read charges, and the descriptor of its newest. */
  async check(key: string): Promise<{ account_label: string | null }> {
    if (!KEY_SHAPE.test(key)) throw new ProviderRefused('invalid', 'This is not a Stripe API key. Paste the restricted key as Stripe shows it.');
    try {
      const page = await this.stripe.charges.list({ limit: 1 }, { apiKey: key });
      return { account_label: page.data[0]?.calculated_statement_descriptor || null };
    } catch (error) {
      throw stripeFailure(error);
    }
  }
}

const NO_LIMITS: ReadLimits = { deadline: Number.POSITIVE_INFINITY, maxCharges: Number.POSITIVE_INFINITY };

/** A Stripe charge as the revenue rules read it: what was captured (0 for a hold), what was refunded, when. */
export function chargeRow(charge: Stripe.Charge): ChargeRow {
  const captured = typeof charge.amount_captured === 'number' ? charge.amount_captured : charge.captured ? charge.amount : 0;
  const row: ChargeRow = {
    amount_cents: captured,
    refunded_cents: charge.amount_refunded ?? 0,
    created_at: new Date(charge.created * 1000),
    succeeded: charge.status === 'succeeded',
    currency: String(charge.currency ?? '').toLowerCase(),
  };
  if (
    !Number.isSafeInteger(row.amount_cents) || !Number.isSafeInteger(row.refunded_cents) || row.amount_cents < 0 || row.refunded_cents < 0 ||
    !Number.isFinite(row.created_at.getTime()) || !row.currency
  ) {
    throw new ProviderUnavailable('Stripe answered a charge we could not read.');
  }
  return row;
}

/** Stripe's error as the port's: a refusal of the key, or Stripe being unavailable. Never Stripe's message (it quotes the key). */
export function stripeFailure(error: unknown): Error {
  if (error instanceof ProviderRefused || error instanceof ProviderUnavailable) return error;
  if (error instanceof Stripe.errors.StripeAuthenticationError) {
    return new ProviderRefused('revoked', 'Stripe no longer accepts this key: it was deleted, rolled or has expired.');
  }
  if (error instanceof Stripe.errors.StripePermissionError) {
    return new ProviderRefused('permission', 'This key cannot read charges: give the restricted key the "Charges: Read" permission.');
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.param === 'starting_after' || error.param === 'limit' || error.param?.startsWith('created'))) {
    // A request of ours Stripe refused is no fault of the seller's key.
    return new ProviderUnavailable('Stripe refused our request for the charges.');
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) return new ProviderRefused('invalid', 'Stripe did not accept this key.');
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new ProviderUnavailable(/timeout/i.test(error.message) ? 'Stripe did not answer in time.' : 'Stripe could not be reached.');
  }
  if (error instanceof Stripe.errors.StripeRateLimitError) return new ProviderUnavailable('Stripe asked us to slow down.');
  if (error instanceof Stripe.errors.StripeError) return new ProviderUnavailable('Stripe answered with an error.');
  return new ProviderUnavailable('Stripe answered something we could not read.');
}
