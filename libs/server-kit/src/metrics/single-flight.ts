import { scrapeReadReuseMs } from './registry';

/**
 * Wraps a read so that callers arriving while one is in flight share it: a scrape whose gauges read the same query
 * runs it once, and a dependency that hangs never piles up one more waiter per scrape (ADR 0048).
 */
export function singleFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () => {
    running ??= read().finally(() => {
      running = null;
    });
    return running;
  };
}

/**
 * A gauge's query as scrapes run it: shared while in flight, and its last answer reused for the process's reuse window
 * (METRICS_READ_REUSE_MS), so a scraper polling every second, or several, cost the database, JetStream and Redis no
 * more than one every window (ADR 0048). A failed read is never reused: the next scrape asks again.
 */
export function scrapeRead<T>(read: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; value: T } | null = null;
  const shared = singleFlight(async () => {
    const value = await read();
    last = { at: now(), value };
    return value;
  });
  return () => (last && now() - last.at < scrapeReadReuseMs() ? Promise.resolve(last.value) : shared());
}
