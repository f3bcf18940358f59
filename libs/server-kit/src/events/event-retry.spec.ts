import { eventRetryDelayMs } from './event-consumer';

describe('eventRetryDelayMs', () => {
  it('retries quickly at first, then doubles to a minute and stays there', () => {
    const delays = (counts: number[]) => counts.map((count) => eventRetryDelayMs(count));
    expect(delays([1, 2, 3])).toEqual([1_000, 1_000, 1_000]);
    expect(delays([4, 5, 6, 7, 8, 9])).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
    expect(eventRetryDelayMs(500)).toBe(60_000);
  });

  it('follows the configured first and longest delays', () => {
    const limits = { retryDelayMs: 50, maxRetryDelayMs: 150 };
    expect([1, 3, 4, 5, 6].map((count) => eventRetryDelayMs(count, limits))).toEqual([50, 50, 100, 150, 150]);
  });
});
