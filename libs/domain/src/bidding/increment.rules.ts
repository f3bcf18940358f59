const STEPS: ReadonlyArray<{ below: number; increment: number }> = [
  { below: 1_000, increment: 5 },
  { below: 10_000, increment: 50 },
  { below: 100_000, increment: 100 },
];
const TOP_INCREMENT = 500;

/** The bid increment for a current price (D6): 5 below 1000, 50 below 10000, 100 below 100000, else 500. */
export function bidIncrement(currentPrice: number): number {
  return STEPS.find((step) => currentPrice < step.below)?.increment ?? TOP_INCREMENT;
}

/** The smallest acceptable next bid (D6): the starting price first, then current bid plus the increment. */
export function minimumNextBid(startingPrice: number, currentBid: number | null): number {
  if (currentBid === null) return startingPrice;
  return currentBid + bidIncrement(currentBid);
}
