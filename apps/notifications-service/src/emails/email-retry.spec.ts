import { EMAIL_ATTEMPTS, emailRetryDelayMs } from './email.queue';

describe('email retries (ADR 0024)', () => {
  it('starts at 30 seconds, doubles, and never waits more than 30 minutes', () => {
    expect([1, 2, 3, 4].map(emailRetryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(emailRetryDelayMs(7)).toBe(30 * 60_000);
    expect(emailRetryDelayMs(50)).toBe(30 * 60_000);
  });

  it('keeps trying for about a day, the age past which a notice is stale', () => {
    let total = 0;
    for (let attempt = 1; attempt < EMAIL_ATTEMPTS; attempt += 1) total += emailRetryDelayMs(attempt);
    expect(total).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(total).toBeLessThan(25 * 3600_000);
  });
});
