import { largeBidRefusal, largeBidThreshold, needsPaymentMethod } from './large-bid.rules';

describe('large bids (ADR 0041)', () => {
  it.each([
    // [minimum next bid, threshold]: the $50,000 margin wins below $5,556 (10x = min + 50,000 at 5555.5...), 10x above.
    [0, 50_000],
    [1, 50_001],
    [100, 50_100],
    [5_555, 55_555],
    [5_556, 55_560],
    [9_000, 90_000],
    [100_000, 1_000_000],
  ])('a minimum next bid of $%i allows up to $%i without a card', (minimum, threshold) => {
    expect(largeBidThreshold(minimum)).toBe(threshold);
    expect(needsPaymentMethod(threshold, minimum)).toBe(false);
    expect(needsPaymentMethod(threshold + 1, minimum)).toBe(true);
  });

  it('takes the greater of the two rules at the point where they meet', () => {
    // 10 * m === m + 50,000 has no whole-dollar solution: around it the larger side always wins.
    for (let minimum = 5_550; minimum <= 5_560; minimum += 1) {
      expect(largeBidThreshold(minimum)).toBe(Math.max(10 * minimum, minimum + 50_000));
      expect(largeBidThreshold(minimum)).toBeGreaterThanOrEqual(minimum + 50_000);
      expect(largeBidThreshold(minimum)).toBeGreaterThanOrEqual(10 * minimum);
    }
  });

  it('never asks for a card below or at the minimum itself', () => {
    for (const minimum of [0, 1, 2_000, 9_050, 1_000_000]) {
      expect(needsPaymentMethod(minimum, minimum)).toBe(false);
      expect(needsPaymentMethod(minimum + 1, minimum)).toBe(false);
    }
  });

  it('refuses amounts that are not whole dollars from 0', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1]) expect(() => largeBidThreshold(bad)).toThrow(RangeError);
  });

  it('tells the bidder the limit and where to add a card', () => {
    expect(largeBidRefusal(9_000)).toBe('Bids above $90,000 need a verified payment method. Add a card under Payment method in your profile, then bid again.');
  });
});
