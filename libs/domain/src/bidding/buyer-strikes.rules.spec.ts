import { buyingHoldOf, buyingOnHold, STRIKE_WINDOW_DAYS } from './buyer-strikes.rules';

const DAY = 24 * 3600_000;
const now = new Date('2026-11-25T12:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * DAY);
const strike = (days: number, lifted: Date | null = null) => ({ struck_at: ago(days), lifted_at: lifted });

describe('buyingOnHold (ADR 0043)', () => {
  it('holds a member with two strikes in the last 90 days, not one', () => {
    expect(buyingOnHold([], now)).toBe(false);
    expect(buyingOnHold([strike(1)], now)).toBe(false);
    expect(buyingOnHold([strike(1), strike(2)], now)).toBe(true);
    expect(buyingOnHold([strike(0), strike(STRIKE_WINDOW_DAYS - 0.01)], now)).toBe(true);
  });
  it('forgets a strike older than the window', () => {
    expect(buyingOnHold([strike(1), strike(STRIKE_WINDOW_DAYS)], now)).toBe(false);
    expect(buyingOnHold([strike(1), strike(STRIKE_WINDOW_DAYS + 1)], now)).toBe(false);
  });
  it('does not count lifted strikes; a strike after a lift counts afresh', () => {
    expect(buyingOnHold([strike(3, ago(1)), strike(2, ago(1))], now)).toBe(false);
    expect(buyingOnHold([strike(3, ago(1)), strike(2, ago(1)), strike(0.5)], now)).toBe(false);
    expect(buyingOnHold([strike(3, ago(1)), strike(0.6), strike(0.5)], now)).toBe(true);
  });

  it('counts the strikes that count, the number an admin sees beside the hold', () => {
    expect(buyingHoldOf([], now)).toEqual({ on_hold: false, strikes: 0 });
    expect(buyingHoldOf([strike(1), strike(STRIKE_WINDOW_DAYS + 1)], now)).toEqual({ on_hold: false, strikes: 1 });
    expect(buyingHoldOf([strike(3, ago(1)), strike(0.6), strike(0.5)], now)).toEqual({ on_hold: true, strikes: 2 });
    // One in the future (a clock ahead) does not count yet.
    expect(buyingHoldOf([strike(1), strike(-1)], now)).toEqual({ on_hold: false, strikes: 1 });
  });
});
