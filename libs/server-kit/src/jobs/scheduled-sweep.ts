import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { PeriodicSweep } from './periodic-sweep';

/** A sweep's name in logs (its label, and its logger's context), how often it runs, and what a failed round answers. */
export interface SweepSchedule<T> {
  label: string;
  context: string;
  intervalMs: number;
  onFailure: T;
  /** The database whose advisory lock keeps the sweep to one replica at a time (ADR 0046). */
  lock?: DataSource;
}

/**
 * A Nest provider that runs its `work` at start and every interval, one round at a time and on one replica at a time
 * (PeriodicSweep, ADR 0046), stopped with the application; `sweep()` runs a round now, joining one already running.
 * Subclasses give the work and, through `super`, the schedule.
 */
export abstract class ScheduledSweep<T> implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger: Logger;
  private readonly periodic: PeriodicSweep<T>;

  constructor(schedule: SweepSchedule<T>) {
    this.logger = new Logger(schedule.context);
    const { label, intervalMs, onFailure, lock } = schedule;
    this.periodic = new PeriodicSweep({ label, intervalMs, onFailure, lock, logger: this.logger }, (now) => this.work(now));
  }

  /** One round of the sweep, at `now`. */
  protected abstract work(now: Date): Promise<T>;

  onApplicationBootstrap(): void {
    this.periodic.start(true);
  }

  onApplicationShutdown(): Promise<void> {
    return this.periodic.stop();
  }

  /** One round now (joined if one runs). */
  sweep(now = new Date()): Promise<T> {
    return this.periodic.run(now);
  }
}
