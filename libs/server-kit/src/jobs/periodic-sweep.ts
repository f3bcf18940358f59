import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { sweepLockKey, withSweepLock } from './sweep-lock';
import { gauge } from '../metrics/registry';

const lastSuccess = () =>
  gauge({
    name: 'market_sweep_last_success_timestamp_seconds',
    help: 'When each sweep last finished a round on this replica (Unix seconds); the freshest replica is the sweep\'s age (docs/slo.md)',
    labelNames: ['sweep'],
  });

/** A sweep's label as a metric label value: "Escrow sweep" is escrow_sweep. */
export function sweepMetricName(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** What a sweep is configured with; with `lock`, one replica at a time runs it (ADR 0046). */
export interface PeriodicSweepOptions<T> {
  label: string;
  intervalMs: number;
  logger: Logger;
  onFailure: T;
  /** The service's database: each run takes the sweep's advisory lock there, and a replica without it skips. */
  lock?: DataSource;
  /** What a skipped run answers (default `onFailure`). */
  onSkipped?: T;
}

/**
 * Work every replica runs on a timer (the database decides what is due): a run already under way is joined, not
 * doubled; with a `lock`, a run another replica is doing is skipped (ADR 0046); a failure is logged as
 * `${label} failed: …` and answered with `onFailure`, and the next tick tries again. The timer never keeps the process
 * alive.
 */
export class PeriodicSweep<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly options: PeriodicSweepOptions<T>,
    private readonly work: (now: Date) => Promise<T>,
  ) {}

  /** Starts the timer; with `runNow`, also runs once at once. */
  start(runNow: boolean): void {
    if (runNow) void this.run();
    this.timer = setInterval(() => void this.run(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One run (joined if one is under way). */
  run(now = new Date()): Promise<T> {
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        return await this.runLocked(now);
      } catch (error) {
        this.options.logger.warn(`${this.options.label} failed: ${(error as Error).message}`);
        return this.options.onFailure;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async runLocked(now: Date): Promise<T> {
    const { lock, label, onFailure, onSkipped } = this.options;
    const done = <V>(value: V): V => {
      lastSuccess().set({ sweep: sweepMetricName(label) }, Date.now() / 1000);
      return value;
    };
    if (!lock) return done(await this.work(now));
    const run = await withSweepLock(lock, sweepLockKey(lock, label), () => this.work(now));
    if (run.ran) return done(run.value);
    this.options.logger.debug?.(`${label} skipped: another replica is running it`);
    return onSkipped ?? onFailure;
  }
}
