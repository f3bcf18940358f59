/** How many complete calendar months a verified figure covers (D24). */
export const VERIFIED_MONTHS = 12;
/** How far above the verified figure a claim may be before buyers and the admin review are told (D24). */
export const CLAIM_TOLERANCE_PERCENT = 15;

/** One calendar month's verified amount: cents of revenue, or users or sessions of traffic. */
export interface VerifiedMonth {
  /** `YYYY-MM`, in UTC. */
  month: string;
  value: number;
}

/** A month as `YYYY-MM` in UTC. */
export function monthKey(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The VERIFIED_MONTHS complete months before the month of `now`, oldest first: a month still running would understate. */
export function verifiedMonths(now: Date): string[] {
  const months: string[] = [];
  for (let back = VERIFIED_MONTHS; back >= 1; back--) months.push(monthKey(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))));
  return months;
}

/**
 * Revenue per month from a provider's charges (D24): each succeeded charge in `currency` counts its amount less what
 * was refunded of it, in the month it was made; charges in another currency are counted apart, never converted.
 */
export function monthlyNetRevenue(
  charges: readonly { amount_cents: number; refunded_cents: number; created_at: Date; succeeded: boolean; currency: string }[],
  now: Date,
  currency = 'usd',
): { months: VerifiedMonth[]; other_currency: number } {
  const totals = new Map(verifiedMonths(now).map((month) => [month, 0]));
  let otherCurrency = 0;
  for (const charge of charges) {
    if (!charge.succeeded) continue;
    const month = monthKey(charge.created_at);
    if (!totals.has(month)) continue;
    if (charge.currency.toLowerCase() !== currency) {
      otherCurrency++;
      continue;
    }
    if (!Number.isSafeInteger(charge.amount_cents) || !Number.isSafeInteger(charge.refunded_cents) || charge.amount_cents < 0 || charge.refunded_cents < 0) {
      throw new RangeError('Charge amounts are whole cents, never negative');
    }
    totals.set(month, (totals.get(month) as number) + charge.amount_cents - Math.min(charge.refunded_cents, charge.amount_cents));
  }
  return { months: [...totals].map(([month, value]) => ({ month, value })), other_currency: otherCurrency };
}

/**
 * The verified monthly figure (D24): the mean of the months from the first with any activity to the last complete
 * one, so a site younger than a year is not averaged with months before it existed; rounded down to a whole unit
 * (never in the seller's favour). Null when no month had any.
 */
export function verifiedMonthlyAverage(months: readonly VerifiedMonth[]): number | null {
  const first = months.findIndex((m) => m.value !== 0);
  if (first === -1) return null;
  const counted = months.slice(first);
  const total = counted.reduce((sum, m) => sum + m.value, 0);
  return Math.floor(total / counted.length);
}

/**
 * True when a claim is more than CLAIM_TOLERANCE_PERCENT above the verified figure (D24), compared in whole numbers:
 * claimed * 100 > verified * 115. A claim at or under it, or no verified figure, is not flagged.
 */
export function isClaimInflated(claimed: number, verified: number | null): boolean {
  if (verified === null) return false;
  return claimed * 100 > verified * (100 + CLAIM_TOLERANCE_PERCENT);
}

/** How long a snapshot stays current (D24): a day's refresh plus a day of grace for a provider's bad day. */
export const FIGURES_CURRENT_FOR_MS = 48 * 3600 * 1000;

/**
 * How a shown figure stands (ADR 0084): `revoked` once the provider refused the key or token, `stale` when the newest
 * snapshot is older than FIGURES_CURRENT_FOR_MS, else `current`. Only a current figure earns the badge: a failing
 * source never shows one that looks current.
 */
export function figureState(connection: 'active' | 'failing' | 'revoked', takenAt: Date, now: Date): 'current' | 'stale' | 'revoked' {
  if (connection === 'revoked') return 'revoked';
  return now.getTime() - takenAt.getTime() > FIGURES_CURRENT_FOR_MS ? 'stale' : 'current';
}

/** The first and last day (YYYY-MM-DD, UTC, inclusive) of the months a verified figure covers. */
export function verifiedDateRange(now: Date): { from: string; to: string } {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - VERIFIED_MONTHS, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

/** A Stripe test-mode key (rk_test_, sk_test_): it reads Stripe's test data, which its owner can make up (ADR 0084). */
export function isStripeTestKey(key: string): boolean {
  return /^(rk|sk)_test_/.test(key);
}
