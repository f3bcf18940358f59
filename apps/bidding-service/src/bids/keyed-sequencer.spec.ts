import { KeyedSequencer, QueueFullError, type BatchOutcome, type SequencedBatch } from './keyed-sequencer';

/** A runner whose batches the test releases one at a time, recording what each took. */
function gatedRunner() {
  const batches: { key: string; items: number[] }[] = [];
  const gates: (() => void)[] = [];
  const started: (() => void)[] = [];
  const run = async (key: string, batch: SequencedBatch<number>): Promise<BatchOutcome<string>[]> => {
    await new Promise<void>((release) => gates.push(release));
    batch.locked();
    const items: number[] = [];
    for (let item = batch.take(); item !== undefined; item = batch.take()) items.push(item);
    batches.push({ key, items });
    started.splice(0).forEach((s) => s());
    return items.map((item) => (item < 0 ? { error: new Error(`refused ${item}`) } : { ok: `${key}:${item}` }));
  };
  /** Resolves once the next gate is waiting, then opens it. */
  const release = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()!();
  };
  return { run, batches, release };
}

describe('KeyedSequencer (ADR 0058)', () => {
  it('starts a batch at the first item; items arriving meanwhile form the next batch, in arrival order, at most batchMax each', async () => {
    const runner = gatedRunner();
    const sequencer = new KeyedSequencer<number, string>({ batchMax: 3, queueMax: 100, maxLockMs: 1000 }, runner.run);
    const first = sequencer.submit('a', 1);
    const later = [2, 3, 4, 5, 6].map((n) => sequencer.submit('a', n));
    await runner.release();
    expect(await first).toBe('a:1');
    // The first batch took everything already waiting when it locked, up to three.
    expect(runner.batches[0].items).toEqual([1, 2, 3]);
    await runner.release();
    expect(await Promise.all(later)).toEqual(['a:2', 'a:3', 'a:4', 'a:5', 'a:6']);
    expect(runner.batches.map((b) => b.items)).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  it('runs one batch per key at a time, and keys independently of each other', async () => {
    let running = 0;
    let most = 0;
    const sequencer = new KeyedSequencer<number, number>({ batchMax: 2, queueMax: 100, maxLockMs: 1000 }, async (_key, batch) => {
      running += 1;
      most = Math.max(most, running);
      const items: number[] = [];
      for (let item = batch.take(); item !== undefined; item = batch.take()) items.push(item);
      await new Promise((r) => setImmediate(r));
      running -= 1;
      return items.map((ok) => ({ ok }));
    });
    const answers = await Promise.all([...Array.from({ length: 10 }, (_, i) => sequencer.submit('a', i)), sequencer.submit('b', 99)]);
    expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 99]);
    // a and b ran side by side (two keys), never two batches of one key.
    expect(most).toBe(2);
    expect(sequencer.waiting('a')).toBe(0);
  });

  it('refuses an item at once when its queue is full, and takes items again once the queue has room', async () => {
    const runner = gatedRunner();
    const sequencer = new KeyedSequencer<number, string>({ batchMax: 10, queueMax: 2, maxLockMs: 1000 }, runner.run);
    const waiting = [sequencer.submit('a', 1), sequencer.submit('a', 2)];
    await expect(sequencer.submit('a', 3)).rejects.toBeInstanceOf(QueueFullError);
    // Another key has its own queue.
    const other = sequencer.submit('b', 1);
    await runner.release();
    await runner.release();
    expect(await Promise.all([...waiting, other])).toEqual(['a:1', 'a:2', 'b:1']);
    const again = sequencer.submit('a', 4);
    await runner.release();
    expect(await again).toBe('a:4');
  });

  it('takes no more items once the batch has held its lock maxLockMs; undecided items given back lead the next batch', async () => {
    let clock = 0;
    const batches: number[][] = [];
    const takes: number[][] = [];
    const sequencer = new KeyedSequencer<number, number>(
      { batchMax: 100, queueMax: 100, maxLockMs: 50 },
      async (_key, batch) => {
        await new Promise((r) => setImmediate(r)); // waiting for the lock: all six arrive meanwhile
        batch.locked();
        const items: number[] = [];
        for (let item = batch.take(); item !== undefined; item = batch.take()) {
          items.push(item);
          clock += 20; // each item takes 20 ms of the lock
        }
        // The runner decides the first item, then finds the lock held too long and gives the rest back.
        const decided = items.slice(0, 1);
        if (batch.overLockTime()) batch.giveBack(items.slice(1));
        else decided.push(...items.slice(1));
        batches.push(decided);
        takes.push(items);
        return decided.map((ok) => ({ ok }));
      },
      () => clock,
    );
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => sequencer.submit('a', n)));
    expect(answers).toEqual([1, 2, 3, 4, 5, 6]);
    // 50 ms allows three takes (at 0, 20, 40 ms); each batch then decides one and gives the rest back, in order, until
    // the last batch takes the last two within the time and decides both.
    expect(takes).toEqual([[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6]]);
    expect(batches).toEqual([[1], [2], [3], [4], [5, 6]]);
  });

  it('an error of one item fails only it; a batch that throws fails every item it took and the next batch runs', async () => {
    let calls = 0;
    const sequencer = new KeyedSequencer<number, number>({ batchMax: 2, queueMax: 100, maxLockMs: 1000 }, async (_key, batch) => {
      calls += 1;
      const items = [batch.take(), batch.take()].filter((i): i is number => i !== undefined);
      if (calls === 2) throw new Error('database down');
      return items.map((item) => (item === 4 ? { error: new Error('refused 4') } : { ok: item }));
    });
    // The first item starts a batch at once (alone); 2 and 3 arrive meanwhile and form the batch that throws.
    const answers = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => sequencer.submit('a', n)));
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual([1, 'database down', 'database down', 'refused 4', 5]);
  });
});
