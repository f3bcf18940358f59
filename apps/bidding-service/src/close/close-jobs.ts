import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { OutboxRelay, PeriodicSweep, REDIS, SERVICE_CONFIG, createFailFastRedis, watchQueue, withTimeout, type ServiceConfig } from '@market/server-kit';
import { BIDDING_CONFIG, type BiddingConfig } from '../bidding.config';
import { SalesRepository } from '../sales/sales.repository';
import { EndSales } from '../sales/end-sales';

export const CLOSE_QUEUE = 'auction-close';
const RECONCILE_BATCH = 1000;
const SWEEP_BATCH = 200;
// Scheduling never waits long on Redis: bids and listing events must not hang on it (the sweep is the backstop).
const SCHEDULE_TIMEOUT_MS = 1000;

interface CloseJob {
  listing_id: string;
}

/** One job per sale and end time, so adding it again is a no-op (BullMQ ids cannot contain ':'). */
export function closeJobId(listingId: string, expiresAt: Date): string {
  return `close-${listingId}-${expiresAt.getTime()}`;
}

/**
 * Closes each sale at its end (D8) with a BullMQ delayed job, moved when soft close extends it (D9). The job only asks
 * the database to close what is due, so running it twice, on two replicas, or late changes nothing. At start every
 * live sale's job is re-created from the database (Redis may have lost them), and a sweep closes anything overdue.
 */
@Injectable()
export class CloseJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CloseJobs');
  private readonly queue: Queue<CloseJob>;
  private readonly queueConnection: Redis;
  private readonly unwatch: () => void;
  private worker: Worker<CloseJob> | null = null;
  private readonly periodic: PeriodicSweep<void>;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly serviceConfig: ServiceConfig,
    @Inject(BIDDING_CONFIG) config: BiddingConfig,
    private readonly sales: SalesRepository,
    private readonly endSales: EndSales,
    private readonly relay: OutboxRelay,
    dataSource?: DataSource,
  ) {
    // Its own connection that fails at once while Redis is away, instead of queueing commands until it is back.
    this.queueConnection = createFailFastRedis(serviceConfig.REDIS_URL, 'bidding-close-queue');
    this.queue = new Queue<CloseJob>(CLOSE_QUEUE, { connection: this.queueConnection, prefix: serviceConfig.QUEUE_PREFIX });
    // Depth, delays and failures on each scrape, read over the fail-fast connection (ADR 0048).
    this.unwatch = watchQueue(this.queue);
    this.periodic = new PeriodicSweep({ label: 'Sweep', intervalMs: config.AUCTION_SWEEP_MS, logger: this.logger, onFailure: undefined, lock: dataSource }, (now) =>
      this.closeOverdue(now),
    );
  }

  async onApplicationBootstrap() {
    this.worker = new Worker<CloseJob>(CLOSE_QUEUE, (job) => this.process(job), {
      connection: this.redis,
      prefix: this.serviceConfig.QUEUE_PREFIX,
      concurrency: 8,
    });
    this.worker.on('failed', (job, error) => this.logger.warn(`Close job ${job?.id} failed: ${error.message}`));
    // In the background: a service whose Redis is away still starts, and the sweep closes sales meanwhile.
    void this.reconcile();
    this.periodic.start(false);
  }

  async onApplicationShutdown() {
    this.unwatch();
    await this.periodic.stop();
    await this.worker?.close();
    await this.queue.close();
    this.queueConnection.disconnect();
  }

  /**
   * Schedules the close of a sale at `expiresAt`; the job for `previous` (an end soft close moved) goes away. Best
   * effort and quick: false when Redis did not take it within a second (the sweep and the start-up check cover it).
   */
  async schedule(listingId: string, expiresAt: Date, previous: Date | null = null): Promise<boolean> {
    const work = (async () => {
      await this.queue.add(
        'close',
        { listing_id: listingId },
        {
          jobId: closeJobId(listingId, expiresAt),
          delay: Math.max(0, expiresAt.getTime() - Date.now()),
          attempts: 10,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: { age: 24 * 3600 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      );
      if (previous && previous.getTime() !== expiresAt.getTime()) {
        // A job that already started cannot be removed; it will find the sale not yet due and do nothing.
        await this.queue.remove(closeJobId(listingId, previous)).catch(() => 0);
      }
    })();
    try {
      await withTimeout(work, SCHEDULE_TIMEOUT_MS, 'Redis');
      return true;
    } catch (error) {
      this.logger.warn(`Close job for ${listingId} not scheduled (${(error as Error).message}); the sweep will close it`);
      return false;
    }
  }

  /** Re-creates the close job of every live sale (no-op for those Redis still has). */
  async reconcile(): Promise<number> {
    let after: string | null = null;
    let count = 0;
    let missed = 0;
    try {
      for (;;) {
        const batch = await this.sales.liveEnds(after, RECONCILE_BATCH);
        if (batch.length === 0) break;
        const scheduled = await Promise.all(batch.map((row) => this.schedule(row.listing_id, row.expires_at)));
        missed += scheduled.filter((ok) => !ok).length;
        count += batch.length;
        after = batch[batch.length - 1].listing_id;
      }
    } catch (error) {
      this.logger.warn(`Close job check stopped: ${(error as Error).message}`);
    }
    this.logger.log(`Close jobs checked for ${count} live sales${missed ? ` (${missed} left to the sweep)` : ''}`);
    return count;
  }

  /** Closes overdue sales whose job did not run, and rejects lapsed pending bids (joined if a sweep is running). */
  sweep(now = new Date()): Promise<void> {
    return this.periodic.run(now);
  }

  private async closeOverdue(now: Date): Promise<void> {
    for (const listingId of await this.sales.dueListingIds(now, SWEEP_BATCH)) await this.close(listingId, now);
    const lapsed = await this.sales.rejectLapsed(now);
    if (lapsed > 0) this.logger.log(`Rejected ${lapsed} pending bids past the seller's window`);
  }

  private async process(job: Job<CloseJob>): Promise<void> {
    await this.close(job.data.listing_id, new Date());
  }

  private async close(listingId: string, now: Date): Promise<void> {
    const result = await this.endSales.closeDue(listingId, now);
    if (result.closed) {
      this.relay.kick();
      this.logger.log(`Sale ${listingId} closed: ${result.outcome.outcome}`);
    } else if (result.expires_at && result.expires_at.getTime() > now.getTime()) {
      // The end moved later and its job may not have been added: make sure it exists.
      await this.schedule(listingId, result.expires_at);
    }
  }
}
