/** The limits of a per-listing sequencer (ADR 0058). */
export interface SequencerLimits {
  /** The most items one batch takes. */
  batchMax: number;
  /** The most items waiting per key, a running batch's own not counted; one more is refused. */
  queueMax: number;
  /** Once a batch has held its lock this long it takes no more items; the rest go to the next batch. */
  maxLockMs: number;
}

/** One item's outcome in a batch: its answer or its own error. */
export type BatchOutcome<R> = { ok: R } | { error: unknown };

/** What a running batch offers its runner: the items in arrival order, within the limits. */
export interface SequencedBatch<T> {
  /** Starts the lock-time clock: call once the lock is held. */
  locked(): void;
  /** The next waiting item, or undefined once the batch is full, has held the lock too long, or nothing waits. */
  take(): T | undefined;
  /** Whether the batch has held its lock for `maxLockMs` (the runner stops deciding then, ADR 0058). */
  overLockTime(): boolean;
  /** Puts items taken but not decided back at the head of the queue, in order, for the next batch. */
  giveBack(items: T[]): void;
}

/**
 * Runs one batch: takes items, returns one outcome per item taken and not given back, in the order taken. A throw fails
 * every item it took (nothing was written: the batch is one transaction).
 */
export type BatchRunner<T, R> = (key: string, batch: SequencedBatch<T>) => Promise<BatchOutcome<R>[]>;

/** Why an item was refused at once: its key's queue is full. */
export class QueueFullError extends Error {
  constructor(readonly key: string) {
    super(`The queue of ${key} is full`);
  }
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Sequences work per key in this process (ADR 0058): an item arriving when no batch of its key runs starts one; items
 * arriving meanwhile wait in arrival order and the next batch takes them. At most one batch per key runs at a time
 * here; across processes the database lock orders batches.
 */
export class KeyedSequencer<T, R> {
  private readonly queues = new Map<string, Waiting<T, R>[]>();
  private readonly running = new Set<string>();

  constructor(
    private readonly limits: SequencerLimits,
    private readonly runner: BatchRunner<T, R>,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many items wait for `key` (a running batch's items not counted). */
  waiting(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }

  /** Queues an item; resolves with its answer, or rejects with its own error, the batch's error, or QueueFullError. */
  submit(key: string, item: T): Promise<R> {
    const queue = this.queues.get(key) ?? [];
    if (queue.length >= this.limits.queueMax) return Promise.reject(new QueueFullError(key));
    this.queues.set(key, queue);
    const answer = new Promise<R>((resolve, reject) => queue.push({ item, resolve, reject }));
    if (!this.running.has(key)) void this.drain(key);
    return answer;
  }

  /** Runs batches for `key` until nothing waits. */
  private async drain(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let queue = this.queues.get(key); queue && queue.length > 0; queue = this.queues.get(key)) await this.runBatch(key, queue);
    } finally {
      this.running.delete(key);
      this.queues.delete(key);
    }
  }

  private async runBatch(key: string, queue: Waiting<T, R>[]): Promise<void> {
    const taken: Waiting<T, R>[] = [];
    let lockedAt: number | null = null;
    const overLockTime = () => lockedAt !== null && this.now() - lockedAt >= this.limits.maxLockMs;
    const batch: SequencedBatch<T> = {
      locked: () => {
        lockedAt ??= this.now();
      },
      take: () => {
        if (taken.length >= this.limits.batchMax || overLockTime() || queue.length === 0) return undefined;
        const next = queue.shift() as Waiting<T, R>;
        taken.push(next);
        return next.item;
      },
      overLockTime,
      giveBack: (items) => {
        const back: Waiting<T, R>[] = [];
        for (const item of items) {
          const at = taken.findIndex((w) => w.item === item);
          if (at >= 0) back.push(...taken.splice(at, 1));
        }
        queue.unshift(...back);
      },
    };
    let outcomes: BatchOutcome<R>[];
    try {
      outcomes = await this.runner(key, batch);
    } catch (error) {
      for (const waiting of taken) waiting.reject(error);
      return;
    }
    taken.forEach((waiting, index) => {
      const outcome = outcomes[index];
      if (!outcome) waiting.reject(new Error('The batch gave no answer for this item'));
      else if ('ok' in outcome) waiting.resolve(outcome.ok);
      else waiting.reject(outcome.error);
    });
  }
}
