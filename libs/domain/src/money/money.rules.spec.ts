import fc from 'fast-check';
import { allowsDirectPurchase, centsToDollars, dollarsToCents, formatDollars, isWholeDollars, MAX_DOLLARS } from './money.rules';

describe('money rules', () => {
  it('accepts only whole non-negative safe amounts', () => {
    expect(isWholeDollars(0)).toBe(true);
    expect(isWholeDollars(25_000)).toBe(true);
    expect(isWholeDollars(10.5)).toBe(false);
    expect(isWholeDollars(-1)).toBe(false);
    expect(isWholeDollars('100')).toBe(false);
    expect(isWholeDollars(Number.MAX_SAFE_INTEGER)).toBe(false);
  });
  it('formats US dollars without decimals', () => {
    expect(formatDollars(25_000)).toBe('$25,000');
    expect(formatDollars(0)).toBe('$0');
  });
  it('converts to cents exactly and refuses fractions', () => {
    expect(dollarsToCents(4_999)).toBe(499_900);
    expect(() => dollarsToCents(1.5)).toThrow(RangeError);
  });
  it('turns cents back into dollars exactly, fees included, and refuses fractional cents', () => {
    expect(centsToDollars(255)).toBe(2.55);
    expect(centsToDollars(499_900)).toBe(4_999);
    expect(() => centsToDollars(12.5)).toThrow(RangeError);
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_DOLLARS }), (dollars) => centsToDollars(dollarsToCents(dollars)) === dollars), { numRuns: 1000 });
  });
  it('allows direct purchase strictly below 5000 (D4)', () => {
    expect(allowsDirectPurchase(4_999)).toBe(true);
    expect(allowsDirectPurchase(5_000)).toBe(false);
  });
});
