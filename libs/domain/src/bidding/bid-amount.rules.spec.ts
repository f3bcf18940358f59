import { MAX_DOLLARS } from '../money/money.rules';
import { BID_AMOUNT_WORDS, bidAmountRefusal, MAX_BELOW_BID, maxAmountRefusal } from './bid-amount.rules';

describe('bidAmountRefusal', () => {
  it.each([
    [Number.NaN, BID_AMOUNT_WORDS.amount.number],
    [Number.POSITIVE_INFINITY, BID_AMOUNT_WORDS.amount.number],
    [Number.NEGATIVE_INFINITY, BID_AMOUNT_WORDS.amount.number],
    [0.5, BID_AMOUNT_WORDS.amount.whole],
    [-0.5, BID_AMOUNT_WORDS.amount.whole],
    [0, BID_AMOUNT_WORDS.amount.min],
    [-3, BID_AMOUNT_WORDS.amount.min],
    [MAX_DOLLARS + 1, BID_AMOUNT_WORDS.amount.max],
    [1e21, BID_AMOUNT_WORDS.amount.whole],
    [1, null],
    [MAX_DOLLARS, null],
  ])('a bid of %p: %p', (value, expected) => {
    expect(bidAmountRefusal('amount', value)).toBe(expected);
  });

  it("speaks of the maximum in the maximum's words", () => {
    expect(bidAmountRefusal('max_amount', 2.5)).toBe('Maximum bid must be whole dollars');
    expect(bidAmountRefusal('max_amount', Number.NaN)).toBe('Maximum bid must be a number');
  });
});

describe('maxAmountRefusal', () => {
  it("refuses a maximum by its own rules first, then one below the bid, and takes one at or above it", () => {
    expect(maxAmountRefusal(500, 0.5)).toBe(BID_AMOUNT_WORDS.max_amount.whole);
    expect(maxAmountRefusal(500, 499)).toBe(MAX_BELOW_BID);
    expect(maxAmountRefusal(500, 500)).toBeNull();
    expect(maxAmountRefusal(500, MAX_DOLLARS + 1)).toBe(BID_AMOUNT_WORDS.max_amount.max);
  });
});
