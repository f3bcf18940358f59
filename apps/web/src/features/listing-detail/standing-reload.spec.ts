import { coalescedReload, freshRead, hasStake } from './standing-reload';

/** A load whose every run waits until the test settles it; `runs` counts the runs started. */
function controlledLoad() {
  const settles: Array<() => void> = [];
  const load = () => new Promise<void>((resolve) => settles.push(resolve));
  return {
    load,
    runs: () => settles.length,
    /** Settles the oldest unsettled run and lets its continuation run. */
    settle: async (index: number) => {
      settles[index]();
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}

describe('hasStake (ADR 0060)', () => {
  it('is a stake only with a bid of theirs: from the answer, or placed from this page before the answer knows it', () => {
    expect(hasStake(undefined, false)).toBe(false);
    expect(hasStake({ has_bid: false }, false)).toBe(false);
    expect(hasStake({ has_bid: true }, false)).toBe(true);
    expect(hasStake(undefined, true)).toBe(true);
    expect(hasStake({ has_bid: false }, true)).toBe(true);
  });
});

describe('coalescedReload (ADR 0060)', () => {
  it('runs one load at a time and folds every ask made meanwhile into one trailing run', async () => {
    const loads = controlledLoad();
    const ask = coalescedReload(loads.load);
    ask();
    expect(loads.runs()).toBe(1);
    // Five live price changes while the first read is out: no second read yet.
    for (let i = 0; i < 5; i += 1) ask();
    expect(loads.runs()).toBe(1);
    await loads.settle(0);
    expect(loads.runs()).toBe(2);
    // Nothing asked during the trailing run: it is the last.
    await loads.settle(1);
    expect(loads.runs()).toBe(2);
    // A later ask starts a new read at once.
    ask();
    expect(loads.runs()).toBe(3);
    await loads.settle(2);
    expect(loads.runs()).toBe(3);
  });

  it('goes on after a failed or throwing load', async () => {
    let calls = 0;
    let fail: (reason: unknown) => void = () => undefined;
    const ask = coalescedReload(() => {
      calls += 1;
      if (calls === 2) throw new Error('not subscribed');
      return new Promise((_resolve, reject) => (fail = reject));
    });
    ask();
    ask();
    fail(new Error('503'));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(calls).toBe(2);
    ask();
    expect(calls).toBe(3);
  });
});

describe('freshRead (ADR 0060)', () => {
  it('asks again when the read it got had started before it was asked (a joined read in flight)', async () => {
    const started = [900, 1000];
    const refetch = jest.fn(async () => ({ startedTimeStamp: started.shift() }));
    await freshRead(refetch, () => 1000);
    expect(refetch).toHaveBeenCalledTimes(2);
  });

  it('reads once when its own read started after it was asked', async () => {
    const refetch = jest.fn(async () => ({ startedTimeStamp: 1000 }));
    await freshRead(refetch, () => 1000);
    expect(refetch).toHaveBeenCalledTimes(1);
  });
});
