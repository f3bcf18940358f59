import { eventRetryDelayMs } from './event-consumer';

describe('eventRetryDelayMs', () => {
  it('retries quickly at first, then doubles to a minute and stays there', () => {
    expect([1, 2, 3].map(eventRetryDelayMs)).toEqual([1_000, 1_000, 1_000]);
    expect([4, 5, 6, 7, 8, 9].map(eventRetryDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
    expect(eventRetryDelayMs(500)).toBe(60_000);
  });
});
