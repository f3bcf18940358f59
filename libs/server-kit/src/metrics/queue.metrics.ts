import { collectedGauge } from './registry';
import { scrapeRead } from './single-flight';

/** What a BullMQ Queue offers that the gauge needs (server-kit does not depend on BullMQ itself). */
export interface CountableQueue {
  readonly name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

export const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

/**
 * Reports a BullMQ queue's jobs by state in market_queue_jobs{queue,state} on each scrape (ADR 0048); give it a queue on
 * a fail-fast Redis connection, so a scrape while Redis is away is skipped at once. Returns the remover (shutdown).
 */
export function watchQueue(queue: CountableQueue): () => void {
  const read = scrapeRead(() => queue.getJobCounts(...QUEUE_STATES));
  return collectedGauge({ name: 'market_queue_jobs', help: 'BullMQ jobs by queue and state (waiting, prioritized, active, delayed, failed)', labelNames: ['queue', 'state'] }, async () => {
    const counts = await read();
    return QUEUE_STATES.map((state) => ({ labels: { queue: queue.name, state }, value: counts[state] ?? 0 }));
  });
}
