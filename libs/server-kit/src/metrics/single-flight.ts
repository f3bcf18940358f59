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
