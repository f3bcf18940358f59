import fc from 'fast-check';
import { centsToDollars } from '../money/money.rules';
import { isValidFeePercent, successFee, sellingFeeText } from './success-fee.rules';

describe('successFee (D10)', () => {
  it.each([
    [4500, 0, 0, 450_000],
    [4500, 5, 22_500, 427_500],
    [4999, 2.5, 12_498, 487_402], // 12,497.5 cents rounds half up
    [1, 0.5, 1, 99], // half a cent rounds up
    [1, 0.49, 0, 100], // 0.49 cents rounds down
    [333, 4.35, 1_449, 31_851], // 1,448.55 cents
    [100, 100, 10_000, 0],
    [1_000_000_000, 50, 50_000_000_000, 50_000_000_000],
  ])('$%d at %d%% is a fee of %d cents and a payout of %d cents', (amount, percent, fee, payout) => {
    expect(successFee(amount, percent)).toEqual({ fee_cents: fee, payout_cents: payout });
  });

  it('always splits the amount exactly, with the fee within half a cent of the true fee', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 10_000 }), (amount, points) => {
        const { fee_cents, payout_cents } = successFee(amount, points / 100);
        expect(fee_cents + payout_cents).toBe(amount * 100);
        expect(Number.isInteger(fee_cents)).toBe(true);
        const exact = (amount * points) / 100;
        expect(fee_cents - exact).toBeLessThanOrEqual(0.5);
        expect(fee_cents - exact).toBeGreaterThan(-0.5);
      }),
    );
  });

  it('refuses fractions of dollars and percents it cannot apply exactly', () => {
    expect(() => successFee(10.5, 5)).toThrow(RangeError);
    expect(() => successFee(100, 4.355)).toThrow(RangeError);
    expect(() => successFee(100, -1)).toThrow(RangeError);
    expect(() => successFee(100, 100.01)).toThrow(RangeError);
    expect(() => successFee(100, Number.NaN)).toThrow(RangeError);
    expect(isValidFeePercent(4.35)).toBe(true);
    expect(isValidFeePercent(0.07)).toBe(true);
    expect(isValidFeePercent(4.355)).toBe(false);
  });

  it('shows cents as dollars', () => {
    expect(centsToDollars(12_498)).toBe(124.98);
    expect(centsToDollars(450_000)).toBe(4500);
    expect(() => centsToDollars(1.5)).toThrow(RangeError);
  });
});

describe('sellingFeeText (ADR 0026)', () => {
  it('says selling is free while the fee is 0 (SPEC §1)', () => {
    expect(sellingFeeText(0)).toBe('Listing and selling is currently free.');
  });

  it('names the fee in force, decimals included', () => {
    expect(sellingFeeText(5)).toBe("Listing is free; when a site sells, a success fee of 5% of the sale price is deducted from the seller's payout.");
    expect(sellingFeeText(2.55)).toContain('a success fee of 2.55% of the sale price');
  });

  it('claims only that listing is free when the fee is unknown or nonsense', () => {
    for (const unknown of [null, undefined, Number.NaN, -1, 2.555]) expect(sellingFeeText(unknown)).toBe('Listing is free.');
  });
});
