/**
 * A seeded integer generator for tests that try many random cases (mulberry32: its low bits are as random as its high
 * ones), so a failure names the seed and case that made it. `next(n)` is an integer in [0, n).
 */
export function seededRandom(seed: number): (n: number) => number {
  return (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}
