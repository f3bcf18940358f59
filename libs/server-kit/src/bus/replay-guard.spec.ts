import { ReplayGuard } from './replay-guard';

describe('ReplayGuard', () => {
  it('takes a signature once until it expires, and forgets it after', () => {
    const guard = new ReplayGuard(1_000);
    expect(guard.firstTime('a', 5_000, 0)).toBe(true);
    expect(guard.firstTime('a', 5_000, 10)).toBe(false);
    expect(guard.firstTime('b', 5_000, 20)).toBe(true);
    expect(guard.firstTime('a', 5_000, 4_999)).toBe(false);
    // Past its expiry the request itself is refused as expired; the guard no longer needs it.
    expect(guard.firstTime('c', 9_000, 6_000)).toBe(true);
    expect(guard.size).toBe(1);
  });
});
