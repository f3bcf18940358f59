import { randomUUID } from 'node:crypto';
import { RPC, type Actor, type ListingDto, type VerificationConnectionsDto } from '@market/contracts';
import { verifiedMonths } from '@market/domain';
import { AppError } from '@market/server-kit';
import { eventually, testCaller } from '@market/server-kit/testing';
import { startListingsUnderTest, type ListingsUnderTest } from './listings-under-test';
import { StripeChargesStandIn } from '../verification/sandbox/stripe-charges.stand-in';
import type { StandInBehaviour } from '../verification/sandbox/stand-in-server';

const DAY_S = 24 * 3600;

/** Unix seconds of the middle of month `month` (YYYY-MM). */
export const midMonth = (month: string) => Date.parse(`${month}-15T12:00:00.000Z`) / 1000;

/** listings-service reading Stripe's stand-in as a production service would (no TEST MODE), and the calls its tests make. */
export interface VerifiedRevenueHarness {
  under: ListingsUnderTest;
  stripe: StripeChargesStandIn;
  /** The 12 months a figure covers now. */
  months: string[];
  call<D extends (typeof RPC.listings)[keyof typeof RPC.listings]>(definition: D, input: unknown, actor: Actor | null): Promise<never>;
  /** The typed error `pending` fails with (a test failure when it succeeds). */
  failure(pending: Promise<unknown>): Promise<AppError>;
  person(role?: 'regular' | 'admin'): Promise<Actor>;
  connect(actor: Actor, id: string, key: string): Promise<VerificationConnectionsDto>;
  listing(id: string, actor?: Actor | null): Promise<ListingDto>;
  /** The listing once its first full read is in (a job right after the connect). */
  verified(id: string): Promise<ListingDto>;
  flags(id: string): Promise<{ revenue_verified: boolean; traffic_verified: boolean }>;
  snapshots(id: string): Promise<number>;
  /** A live key of an account earning `cents` in each verified month (plus a refund and a failed charge that count nothing). */
  account(cents: number, behaviour?: StandInBehaviour): string;
  stop(): Promise<void>;
}

/** Starts the Stripe stand-in and listings-service reading it (VERIFICATION_TIMEOUT_MS 800: a slow answer fails fast). */
export async function startVerifiedRevenue(): Promise<VerifiedRevenueHarness> {
  const stripe = new StripeChargesStandIn();
  const at = await stripe.start();
  const under = await startListingsUnderTest({
    STRIPE_VERIFICATION: 'on',
    STRIPE_API_HOST: at.host,
    STRIPE_API_PORT: at.port,
    STRIPE_API_PROTOCOL: at.protocol,
    VERIFICATION_TIMEOUT_MS: 800,
    VERIFICATION_REFRESH_MS: 86_400_000,
  }).catch(async (error: unknown) => {
    await stripe.stop();
    throw error;
  });
  const months = verifiedMonths(new Date());
  const call: VerifiedRevenueHarness['call'] = (definition, input, actor) => under.svc.rpc.call(definition as never, input as never, actor) as Promise<never>;
  const listing = (id: string, actor: Actor | null = null) => call(RPC.listings.get, { id }, actor) as Promise<ListingDto>;
  return {
    under,
    stripe,
    months,
    call,
    failure: async (pending) => {
      const outcome = await pending.then(() => null, (error: unknown) => error);
      if (!(outcome instanceof AppError)) throw new Error(`expected a typed error, got ${String(outcome)}`);
      return outcome;
    },
    person: (role = 'regular') => testCaller(under.svc.env, { role }),
    connect: (actor, id, key) => call(RPC.listings.connectStripe, { id, connect: { key } }, actor) as Promise<VerificationConnectionsDto>,
    listing,
    verified: async (id) => {
      await eventually(async () => expect((await listing(id)).verification?.revenue).not.toBeNull());
      return listing(id);
    },
    flags: async (id) => (await under.ds.query('SELECT revenue_verified, traffic_verified FROM listings WHERE id = $1', [id]))[0],
    snapshots: async (id) => Number((await under.ds.query('SELECT count(*) FROM verification_snapshots WHERE listing_id = $1', [id]))[0].count),
    account: (cents, behaviour) => {
      const key = `rk_live_${randomUUID().replace(/-/g, '')}`;
      stripe.addAccount(
        key,
        months.flatMap((month) => [
          { amount: cents + 500, amount_refunded: 500, created: midMonth(month), calculated_statement_descriptor: 'COFFEE BLOG' },
          { amount: 9_999, status: 'failed' as const, created: midMonth(month) + DAY_S },
        ]),
        behaviour,
      );
      return key;
    },
    stop: async () => {
      await under.stop();
      await stripe.stop();
    },
  };
}
