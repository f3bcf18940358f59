import { bidIncrement, minimumNextBid } from './increment.rules';

describe('bidIncrement', () => {
  it.each([
    [0, 5],
    [999, 5],
    [1_000, 50],
    [9_999, 50],
    [10_000, 100],
    [99_999, 100],
    [100_000, 500],
    [5_000_000, 500],
  ])('at %i is %i', (price, increment) => {
    expect(bidIncrement(price)).toBe(increment);
  });
});

describe('minimumNextBid', () => {
  it('is the starting price before any bid', () => {
    expect(minimumNextBid(750, null)).toBe(750);
  });
  it('is the current bid plus the increment afterwards', () => {
    expect(minimumNextBid(750, 995)).toBe(1_000);
    expect(minimumNextBid(750, 1_000)).toBe(1_050);
    expect(minimumNextBid(750, 100_000)).toBe(100_500);
  });
});
