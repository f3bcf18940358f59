import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { VerificationSource } from '@market/contracts';
import { PeriodicSweep, REDIS, SERVICE_CONFIG, createFailFastRedis, watchQueue, withTimeout, type ServiceConfig } from '@market/server-kit';
import { LISTINGS_CONFIG, type ListingsConfig } from '../listings.config';
import { CredentialSeal } from './credential-seal';
import { VerificationRepository } from './verification.repository';
import { VerificationRefresher } from './verification-refresher';

export const VERIFICATION_QUEUE = 'verification-refresh';
const BATCH = 500;
// Scheduling never holds a seller's request long on Redis: the sweep schedules what was missed.
const SCHEDULE_TIMEOUT_MS = 1000;
// Every 5 minutes: well inside the sweeps SLO's 15 (docs/slo.md), and cheap (only flagged listings are read).
const SWEEP_MS = 300_000;

const JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential', delay: 60_000 }, removeOnComplete: { age: 24 * 3600 }, removeOnFail: { age: 7 * 24 * 3600 } };

interface RefreshJob {
  listing_id: string;
  source: VerificationSource;
}

/** One scheduler per listing and source (BullMQ ids cannot contain ':'). */
export function refreshSchedulerId(listingId: string, source: VerificationSource): string {
  return `verify-${listingId}-${source}`;
}

/**
 * The refresh of connected sources while their listing is live (D24, ADR 0084): a BullMQ job scheduler per listing and
 * source, every VERIFICATION_REFRESH_MS (a day), and a first read at once when a seller connects. A run ends its own
 * scheduler when the connection is gone, revoked or its listing no longer live. A sweep every 5 minutes schedules every
 * live connection that has none (Redis lost it, or the listing is live again) or was never read, wipes the keys of
 * listings sold or cancelled, and turns off card flags whose figures are no longer current, so a failing source never keeps a badge that looks current. At start, credentials sealed
 * under a previous bus key are sealed again with the current one.
 */
@Injectable()
export class VerificationRefreshJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('VerificationRefreshJobs');
  private readonly queue: Queue<RefreshJob>;
  private readonly queueConnection: Redis;
  private readonly unwatch: () => void;
  private worker: Worker<RefreshJob> | null = null;
  private readonly sweep: PeriodicSweep<number>;
  private stopped = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly serviceConfig: ServiceConfig,
    @Inject(LISTINGS_CONFIG) private readonly config: Partial<ListingsConfig>,
    private readonly repo: VerificationRepository,
    private readonly refresher: VerificationRefresher,
    private readonly seal: CredentialSeal,
    dataSource: DataSource,
  ) {
    this.queueConnection = createFailFastRedis(serviceConfig.REDIS_URL, 'listings-verification-queue');
    this.queue = new Queue<RefreshJob>(VERIFICATION_QUEUE, { connection: this.queueConnection, prefix: serviceConfig.QUEUE_PREFIX });
    this.unwatch = watchQueue(this.queue);
    this.sweep = new PeriodicSweep({ label: 'Verified figures sweep', intervalMs: SWEEP_MS, logger: this.logger, onFailure: 0, lock: dataSource }, (now) => this.sweepOnce(now));
  }

  async onApplicationBootstrap() {
    this.worker = new Worker<RefreshJob>(VERIFICATION_QUEUE, (job) => this.process(job), {
      connection: this.redis,
      prefix: this.serviceConfig.QUEUE_PREFIX,
      concurrency: 4,
    });
    this.worker.on('failed', (job, error) => this.logger.warn(`Refresh job ${job?.id} failed: ${error.message}`));
    // In the background: a service whose Redis is away still starts.
    void this.resealAll().then(() => {
      if (!this.stopped) this.sweep.start(true);
    });
  }

  async onApplicationShutdown() {
    this.stopped = true;
    this.unwatch();
    await this.sweep.stop();
    await this.worker?.close();
    await this.queue.close();
    this.queueConnection.disconnect();
  }

  /**
   * Starts reading a new connection: its first read at once (one job per connection, `connectedAt` naming it), then
   * every period. Best effort and quick: the sweep adds what Redis did not take (ADR 0084).
   */
  async startReading(listingId: string, source: VerificationSource, connectedAt: Date): Promise<boolean> {
    const every = this.config.VERIFICATION_REFRESH_MS ?? 86_400_000;
    const work = Promise.all([this.addFirstRead(listingId, source, connectedAt), this.add(listingId, source, Date.now() + every)]);
    return this.quick(work, `Reading ${source} for ${listingId} not scheduled`);
  }

  /** Runs a connection's refresh now, then every period (its scheduler made again). */
  async refreshNow(listingId: string, source: VerificationSource): Promise<boolean> {
    const work = (async () => {
      await this.queue.removeJobScheduler(refreshSchedulerId(listingId, source));
      await this.add(listingId, source);
    })();
    return this.quick(work, `Refresh of ${source} for ${listingId} not scheduled`);
  }

  /** Ends a connection's refresh (best effort: a run that finds the connection gone ends it too). */
  async unschedule(listingId: string, source: VerificationSource): Promise<void> {
    await this.quick(this.queue.removeJobScheduler(refreshSchedulerId(listingId, source)), `Refresh of ${source} for ${listingId} not unscheduled`);
  }

  /**
   * Schedules every live connection that has no scheduler (its first run at once: it may have missed days), and reads
   * at once every one not read since it was connected (its first read was not queued); leaves the others alone, so
   * their next run is not pushed back. The number of jobs added.
   */
  async reconcile(): Promise<number> {
    const existing = new Set((await this.queue.getJobSchedulers(0, -1)).map((scheduler) => scheduler.key));
    let after: string | null = null;
    let added = 0;
    for (;;) {
      const batch = await this.repo.refreshable(after, BATCH);
      if (batch.length === 0) break;
      for (const row of batch) {
        if (!existing.has(refreshSchedulerId(row.listing_id, row.source))) {
          await this.add(row.listing_id, row.source);
          added++;
        } else if (row.unread) {
          await this.addFirstRead(row.listing_id, row.source, row.connected_at);
          added++;
        }
      }
      after = batch[batch.length - 1].listing_id + batch[batch.length - 1].source;
    }
    if (added > 0) this.logger.log(`Queued the refresh of ${added} connections that had none`);
    return added;
  }

  /** One round of the sweep now (joined if it is running): the number of listings whose flags changed. */
  sweepNow(now = new Date()): Promise<number> {
    return this.sweep.run(now);
  }

  private async sweepOnce(now: Date): Promise<number> {
    let changed = 0;
    try {
      // Sold or cancelled listings' keys go whenever the sale ended (their schedules may be gone already).
      const ended = await this.repo.retireEnded();
      changed += (await this.refresher.syncFlags(ended, undefined, now)).size;
      let after: string | null = null;
      for (;;) {
        const ids = await this.repo.flaggedListings(after, BATCH);
        if (ids.length === 0) break;
        changed += (await this.refresher.syncFlags(ids, undefined, now)).size;
        after = ids[ids.length - 1];
      }
    } finally {
      await withTimeout(this.reconcile(), 30_000, 'Redis').catch((error: unknown) => this.logger.warn(`Refresh schedules not checked: ${(error as Error).message}`));
    }
    return changed;
  }

  /** Seals again what a previous bus key sealed (a rotation, ADR 0084): no provider is asked. */
  private async resealAll(): Promise<void> {
    let after: string | null = null;
    let resealed = 0;
    try {
      for (;;) {
        const batch = await this.repo.sealedUnder(this.seal.currentKeyId(), after, BATCH);
        if (batch.length === 0) break;
        for (const row of batch) {
          const secret = this.seal.open(row.credential, row.listing_id, row.source);
          if (secret === null) continue;
          await this.repo.reseal(row.listing_id, row.source, row.credential, this.seal.seal(secret, row.listing_id, row.source));
          resealed++;
        }
        after = batch[batch.length - 1].listing_id + batch[batch.length - 1].source;
      }
    } catch (error) {
      this.logger.warn(`Sealing stored keys again stopped: ${(error as Error).message}`);
    }
    if (resealed > 0) this.logger.log(`Sealed ${resealed} stored keys again with the current bus key`);
  }

  // The scheduler: its first run at `startDate` (at once when not given), then every period.
  private add(listingId: string, source: VerificationSource, startDate?: number) {
    const every = this.config.VERIFICATION_REFRESH_MS ?? 86_400_000;
    return this.queue.upsertJobScheduler(
      refreshSchedulerId(listingId, source),
      startDate === undefined ? { every } : { every, startDate },
      { name: 'refresh', data: { listing_id: listingId, source }, opts: JOB_OPTIONS },
    );
  }

  // One first read per connection: its id names when it was connected, so asking again adds nothing.
  private addFirstRead(listingId: string, source: VerificationSource, connectedAt: Date) {
    return this.queue.add('refresh', { listing_id: listingId, source }, { ...JOB_OPTIONS, jobId: `first-${listingId}-${source}-${connectedAt.getTime()}` });
  }

  private async quick(work: Promise<unknown>, failure: string): Promise<boolean> {
    try {
      await withTimeout(work, SCHEDULE_TIMEOUT_MS, 'Redis');
      return true;
    } catch (error) {
      this.logger.warn(`${failure} (${(error as Error).message}); the sweep schedules it`);
      return false;
    }
  }

  private async process(job: Job<RefreshJob>): Promise<void> {
    const outcome = await this.refresher.refresh(job.data.listing_id, job.data.source);
    if (outcome !== 'refreshed' && outcome !== 'failing' && outcome !== 'superseded') await this.unschedule(job.data.listing_id, job.data.source);
  }
}
