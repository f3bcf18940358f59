import { FIGURES_CURRENT_FOR_MS, figureState, isStripeTestKey, verifiedDateRange, isClaimInflated, monthlyNetRevenue, verifiedMonthlyAverage, verifiedMonths } from './verified-figures.rules';

describe('verified figures (D24)', () => {
  const now = new Date('2026-12-07T10:00:00.000Z');

  it('covers the 12 complete months before the current one, across a year', () => {
    const months = verifiedMonths(now);
    expect(months).toHaveLength(12);
    expect([months[0], months[10], months[11]]).toEqual(['2025-12', '2026-10', '2026-11']);
    expect(verifiedMonths(new Date('2026-01-31T23:59:59.999Z'))[11]).toBe('2025-12');
  });

  it('sums succeeded charges less refunds per month, outside the window and other currencies apart', () => {
    const charge = (at: string, amount: number, refunded = 0, extra: Partial<{ succeeded: boolean; currency: string }> = {}) => ({
      amount_cents: amount,
      refunded_cents: refunded,
      created_at: new Date(at),
      succeeded: extra.succeeded ?? true,
      currency: extra.currency ?? 'usd',
    });
    const { months, other_currency } = monthlyNetRevenue(
      [
        charge('2026-11-30T23:59:59.999Z', 10_000),
        charge('2026-11-01T00:00:00.000Z', 5_000, 2_000),
        charge('2026-11-15T00:00:00.000Z', 7_000, 9_000), // over-refunded: never negative
        charge('2026-11-16T00:00:00.000Z', 3_000, 0, { succeeded: false }),
        charge('2026-11-17T00:00:00.000Z', 4_000, 0, { currency: 'EUR' }),
        charge('2026-12-01T00:00:00.000Z', 99_000), // this month: still running
        charge('2025-11-30T23:59:59.999Z', 99_000), // before the window
        charge('2025-12-01T00:00:00.000Z', 1_234),
      ],
      now,
    );
    expect(months.find((m) => m.month === '2026-11')?.value).toBe(13_000);
    expect(months[0]).toEqual({ month: '2025-12', value: 1_234 });
    expect(months.reduce((sum, m) => sum + m.value, 0)).toBe(14_234);
    expect(other_currency).toBe(1);
  });

  it('averages from the first month with activity, rounded down', () => {
    const months = verifiedMonths(now).map((month, i) => ({ month, value: i < 9 ? 0 : [100, 200, 301][i - 9] }));
    expect(verifiedMonthlyAverage(months)).toBe(200);
    expect(verifiedMonthlyAverage(verifiedMonths(now).map((month) => ({ month, value: 0 })))).toBeNull();
    // A quiet month after the first counts as a zero.
    expect(verifiedMonthlyAverage([{ month: 'a', value: 0 }, { month: 'b', value: 90 }, { month: 'c', value: 0 }, { month: 'd', value: 1 }])).toBe(30);
  });

  it('flags a claim more than 15% above the verified figure, exactly at the edge', () => {
    expect(isClaimInflated(11_500, 10_000)).toBe(false);
    expect(isClaimInflated(11_501, 10_000)).toBe(true);
    expect(isClaimInflated(115, 100)).toBe(false);
    expect(isClaimInflated(116, 100)).toBe(true);
    expect(isClaimInflated(1, 0)).toBe(true);
    expect(isClaimInflated(0, 0)).toBe(false);
    expect(isClaimInflated(1_000_000, null)).toBe(false);
  });

  it('refuses amounts that are not whole cents, or negative', () => {
    expect(() => monthlyNetRevenue([{ amount_cents: 10.5, refunded_cents: 0, created_at: new Date('2026-11-02'), succeeded: true, currency: 'usd' }], now)).toThrow(RangeError);
    // A negative refund would add revenue; a negative amount take it away: neither is a charge.
    expect(() => monthlyNetRevenue([{ amount_cents: 1000, refunded_cents: -500, created_at: new Date('2026-11-02'), succeeded: true, currency: 'usd' }], now)).toThrow(RangeError);
    expect(() => monthlyNetRevenue([{ amount_cents: -1000, refunded_cents: 0, created_at: new Date('2026-11-02'), succeeded: true, currency: 'usd' }], now)).toThrow(RangeError);
  });

  it('calls a figure current only while its source is not revoked and its snapshot is at most 48 hours old', () => {
    const taken = new Date(now.getTime() - FIGURES_CURRENT_FOR_MS);
    expect(figureState('active', taken, now)).toBe('current');
    expect(figureState('failing', taken, now)).toBe('current');
    expect(figureState('active', new Date(taken.getTime() - 1), now)).toBe('stale');
    expect(figureState('failing', new Date(taken.getTime() - 1), now)).toBe('stale');
    expect(figureState('revoked', now, now)).toBe('revoked');
  });

  it('gives the covered months as dates, first and last day included', () => {
    expect(verifiedDateRange(now)).toEqual({ from: '2025-12-01', to: '2026-11-30' });
    expect(verifiedDateRange(new Date('2026-03-01T00:00:00.000Z'))).toEqual({ from: '2025-03-01', to: '2026-02-28' });
    expect(verifiedDateRange(new Date('2024-03-31T23:59:59.999Z')).to).toBe('2024-02-29');
  });

  it('tells a Stripe test-mode key from a live one', () => {
    expect(isStripeTestKey('rk_test_abc123')).toBe(true);
    expect(isStripeTestKey('rk_live_abc123')).toBe(false);
    expect(isStripeTestKey('xrk_test_abc')).toBe(false);
  });
});
