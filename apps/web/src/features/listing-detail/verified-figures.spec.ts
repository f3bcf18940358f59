import {
  compactNumber,
  figureStatus,
  formatCount,
  formatVerifiedDate,
  hasVerifiedFigures,
  monthBars,
  monthLabel,
  niceMax,
  revenueClaimWarning,
  trafficClaimWarning,
  yOf,
  type Plot,
} from './verified-figures';

const AT = '2026-12-07T23:30:00.000Z';

describe('figureStatus: only a current figure earns the badge (ADR 0084)', () => {
  it('gives a current figure the provider badge and the day it was verified', () => {
    expect(figureStatus('revenue', { state: 'current', verified_at: AT })).toEqual({
      badge: 'Revenue verified by Stripe',
      note: 'Verified on December 7, 2026',
    });
    expect(figureStatus('traffic', { state: 'current', verified_at: AT }).badge).toBe('Traffic verified by Google Analytics');
  });
  it('gives a stale figure no badge, only when it was last verified', () => {
    expect(figureStatus('revenue', { state: 'stale', verified_at: AT })).toEqual({ badge: null, note: 'Last verified on December 7, 2026' });
  });
  it('says a revoked figure is no longer connected, without a badge', () => {
    expect(figureStatus('traffic', { state: 'revoked', verified_at: AT })).toEqual({
      badge: null,
      note: 'Last verified on December 7, 2026 (no longer connected)',
    });
  });
});

describe('claim warnings (D24: more than 15% above the verified figure)', () => {
  it('writes the claimed and verified revenue exactly, from cents', () => {
    expect(revenueClaimWarning({ inflated: true, claimed_cents: 500_000, monthly_average_cents: 312_345 })).toBe('Seller claims $5,000/mo; verified $3,123.45/mo');
    expect(revenueClaimWarning({ inflated: true, claimed_cents: 500_000, monthly_average_cents: null })).toBe('Seller claims $5,000/mo; verified $0/mo');
  });
  it('compares claimed visits with verified sessions', () => {
    expect(trafficClaimWarning({ inflated: true, claimed: 45_000, monthly_average_sessions: 12_345 })).toBe(
      'Seller claims 45,000 visits/mo; verified 12,345 sessions/mo',
    );
  });
  it('says nothing when the claim is within the tolerance', () => {
    expect(revenueClaimWarning({ inflated: false, claimed_cents: 500_000, monthly_average_cents: 100 })).toBeNull();
    expect(trafficClaimWarning({ inflated: false, claimed: 10, monthly_average_sessions: 1 })).toBeNull();
  });
});

describe('formatting', () => {
  it('names months in UTC, short and long, and leaves anything else as given', () => {
    expect(monthLabel('2026-01', 'short')).toBe('Jan');
    expect(monthLabel('2025-12')).toBe('December 2025');
    expect(monthLabel('2026-13')).toBe('2026-13');
    expect(monthLabel('soon')).toBe('soon');
  });
  it('writes the verified day in UTC, so the server and the browser agree', () => {
    expect(formatVerifiedDate('2026-12-31T23:59:59.000Z')).toBe('December 31, 2026');
    expect(formatVerifiedDate('not a date')).toBe('not a date');
  });
  it('groups counts in full and keeps axis labels short', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(compactNumber(12_500)).toBe('12.5K');
    expect(compactNumber(0)).toBe('0');
  });
});

describe('hasVerifiedFigures', () => {
  it('is true only when a source has figures', () => {
    expect(hasVerifiedFigures(undefined)).toBe(false);
    expect(hasVerifiedFigures({ revenue: null, traffic: null })).toBe(false);
    expect(hasVerifiedFigures({ revenue: null, traffic: {} })).toBe(true);
  });
});

describe('monthly bars', () => {
  const plot: Plot = { width: 140, height: 110, left: 20, right: 0, top: 10, bottom: 0 };

  it('rounds the axis top up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(180)).toBe(200);
    expect(niceMax(2_100)).toBe(2_500);
    expect(niceMax(4_999)).toBe(5_000);
    expect(niceMax(123_456)).toBe(200_000);
  });
  it('places values on the axis from the bottom up, never below it', () => {
    expect(yOf(0, 100, plot)).toBe(110);
    expect(yOf(100, 100, plot)).toBe(10);
    expect(yOf(50, 100, plot)).toBe(60);
    expect(yOf(-5, 100, plot)).toBe(110);
  });
  it('groups the series side by side in each month, in 70% of its slot', () => {
    const [sessions, users] = monthBars(
      [
        [100, 50],
        [40, 0],
      ],
      100,
      plot,
    );
    // Two months of 60 units: a group of 42 centred, two bars of 21.
    expect(sessions[0]).toEqual({ x: 29, y: 10, width: 21, height: 100 });
    expect(users[0]).toEqual({ x: 50, y: 70, width: 21, height: 40 });
    expect(sessions[1]).toEqual({ x: 89, y: 60, width: 21, height: 50 });
    expect(users[1].height).toBe(0);
  });
  it('draws nothing without months', () => {
    expect(monthBars([[]], 1, plot)).toEqual([[]]);
  });
});
