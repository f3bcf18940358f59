import { createHash } from 'node:crypto';
import { verifiedMonths } from '@market/domain';
import type { TrafficMonth } from '../providers/verification-sources.port';
import { GoogleStandIn } from './google.stand-in';
import { StripeChargesStandIn, type StandInChargeInput } from './stripe-charges.stand-in';
import type { StandInAddress } from './stand-in-server';

/** The stand-ins npm start's sandbox runs in listings-service, and where they listen. */
export interface VerificationSandbox {
  stripe: StandInAddress;
  google: GoogleStandIn;
  stop(): Promise<void>;
}

// The most a sandbox figure may be: a month of revenue in cents, or of sessions.
const MAX_FIGURE = 10_000_000_000;

/** A figure from `text`: its first run of digits when there is one (up to MAX_FIGURE), else one from its hash. */
export function sandboxFigure(text: string, fallbackMax: number): number {
  const digits = /\d+/.exec(text)?.[0];
  if (digits !== undefined && digits.length <= 11 && Number(digits) > 0 && Number(digits) <= MAX_FIGURE) return Number(digits);
  return 1 + (createHash('sha256').update(text).digest().readUInt32BE(0) % fallbackMax);
}

/**
 * The sandbox account behind any `rk_test_` key (ADR 0084), like Stripe's test card numbers: the first run of digits
 * in the key is the monthly revenue in cents (rk_test_demo1250000x… earns $12,500 a month), each month paid as two
 * charges, one of them partly refunded. Any other key is unknown (401).
 */
export function sandboxCharges(key: string, now = new Date()): StandInChargeInput[] | null {
  if (!key.startsWith('rk_test_')) return null;
  const cents = sandboxFigure(key.slice('rk_test_'.length), 2_000_000);
  return verifiedMonths(now).flatMap((month) => {
    const at = Date.parse(`${month}-10T12:00:00.000Z`) / 1000;
    const half = Math.floor(cents / 2);
    return [
      { amount: half, created: at, calculated_statement_descriptor: 'SANDBOX SITE' },
      { amount: cents - half + 1000, amount_refunded: 1000, created: at + 86_400 },
    ];
  });
}

/** The sandbox GA4 property behind any numeric id: the id is its monthly sessions (at most MAX_FIGURE), users 60% of them. */
export function sandboxTraffic(propertyId: string, now = new Date()): TrafficMonth[] | null {
  if (!/^[0-9]{1,20}$/.test(propertyId)) return null;
  const sessions = sandboxFigure(propertyId, 200_000);
  return verifiedMonths(now).map((month) => ({ month, sessions, users: Math.floor((sessions * 6) / 10) }));
}

/**
 * Starts the Stripe and Google stand-ins as npm start's sandbox (ADR 0084): the official SDKs read them, every figure
 * is TEST MODE, and the seller's browser reaches the Google stand-in's consent page on this machine.
 */
export async function startVerificationSandbox(): Promise<VerificationSandbox> {
  const stripe = new StripeChargesStandIn();
  stripe.openAccounts = (key) => sandboxCharges(key);
  const google = new GoogleStandIn();
  google.openProperties = (propertyId) => sandboxTraffic(propertyId);
  const stripeAt = await stripe.start();
  await google.start().catch(async (error: unknown) => {
    await stripe.stop();
    throw error;
  });
  return {
    stripe: stripeAt,
    google,
    stop: async () => {
      await Promise.allSettled([stripe.stop(), google.stop()]);
    },
  };
}
