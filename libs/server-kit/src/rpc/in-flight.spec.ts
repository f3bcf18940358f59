import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('is idle at once when nothing was taken', async () => {
    await expect(new InFlight().idle(1000)).resolves.toBe(true);
  });

  it('resolves true when the last request taken is answered, not before', async () => {
    const inFlight = new InFlight();
    inFlight.begin();
    inFlight.begin();
    let result: boolean | null = null;
    const idle = inFlight.idle(10_000).then((r) => (result = r));
    inFlight.end();
    await Promise.resolve();
    expect(result).toBeNull();
    expect(inFlight.size).toBe(1);
    inFlight.end();
    await idle;
    expect(result).toBe(true);
  });

  it('resolves false after the timeout when a request never ends', async () => {
    jest.useFakeTimers();
    const inFlight = new InFlight();
    inFlight.begin();
    const idle = inFlight.idle(500);
    jest.advanceTimersByTime(500);
    await expect(idle).resolves.toBe(false);
    jest.useRealTimers();
  });
});
