import { monthlyNetRevenue, verifiedMonthlyAverage } from '@market/domain';
import { sandboxCharges, sandboxFigure, sandboxTraffic } from './verification-sandbox';

describe('the verified figures sandbox (ADR 0084)', () => {
  const now = new Date('2026-12-07T10:00:00.000Z');

  it('reads a test key\'s first digits as its monthly revenue in cents, net of the refund it makes', () => {
    const charges = sandboxCharges('rk_test_demo1250000xab12', now)!.map((c) => ({
      amount_cents: c.amount,
      refunded_cents: c.amount_refunded ?? 0,
      created_at: new Date(c.created * 1000),
      succeeded: true,
      currency: 'usd',
    }));
    const { months } = monthlyNetRevenue(charges, now);
    expect(months.map((m) => m.value)).toEqual(Array(12).fill(1_250_000));
    expect(verifiedMonthlyAverage(months)).toBe(1_250_000);
  });

  it('knows no live key, and gives a key without digits a steady figure of its own', () => {
    expect(sandboxCharges('rk_live_demo1250000', now)).toBeNull();
    expect(sandboxFigure('abcdef', 1000)).toBe(sandboxFigure('abcdef', 1000));
    expect(sandboxFigure('abcdef', 1000)).toBeGreaterThanOrEqual(1);
    expect(sandboxFigure('abcdef', 1000)).toBeLessThanOrEqual(1000);
    expect(sandboxFigure('99999999999', 1000)).toBeLessThanOrEqual(1000);
  });

  it('makes a property\'s id its monthly sessions, users 60%, and knows no id that is not a number', () => {
    const months = sandboxTraffic('25000', now)!;
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ month: '2025-12', sessions: 25_000, users: 15_000 });
    expect(sandboxTraffic('G-ABC', now)).toBeNull();
  });
});
