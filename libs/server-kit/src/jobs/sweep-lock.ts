import type { DataSource } from 'typeorm';

/** What a sweep under a lock did: ran (with its result), or skipped because another replica holds the lock. */
export type LockedRun<T> = { ran: true; value: T } | { ran: false };

/** The advisory lock key of a sweep: one per service schema and sweep label, so replicas of one service share it. */
export function sweepLockKey(dataSource: DataSource, label: string): string {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  return `sweep:${schema}:${label}`;
}

/**
 * Runs `work` only if this process gets the sweep's PostgreSQL advisory lock (ADR 0046), else skips at once: one
 * replica at a time runs each sweep. The lock is a session lock on a connection held for the run (not a transaction,
 * which would sit idle in transaction while the work uses other connections); it goes when the run ends, or with the
 * connection if the process dies.
 */
export async function withSweepLock<T>(dataSource: DataSource, key: string, work: () => Promise<T>): Promise<LockedRun<T>> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
    if (!locked) return { ran: false };
    try {
      return { ran: true, value: await work() };
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}
