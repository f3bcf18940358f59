import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { retentionPeriods, type RetentionPeriods } from '../config/growth-env';
import type { ServiceConfig } from '../config/env';
import { PeriodicSweep } from './periodic-sweep';

/** Rows of one table deleted once `column` (a timestamp) is older than `keepMs`; rows where it is null are kept. */
export interface RetentionRule {
  table: string;
  column: string;
  keepMs: number;
}

const BATCH = 1000;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The rules every service has: published outbox rows, processed events once no redelivery can come, and
 * Idempotency-Keys once expired (ADR 0047: a retry after that is a new request).
 */
export function kitRetentionRules(periods: Pick<RetentionPeriods, 'outboxMs' | 'processedEventsMs'>): RetentionRule[] {
  return [
    { table: 'outbox', column: 'published_at', keepMs: periods.outboxMs },
    { table: 'processed_events', column: 'processed_at', keepMs: periods.processedEventsMs },
    { table: 'idempotency_keys', column: 'expires_at', keepMs: 0 },
  ];
}

/** A service's retention job: the kit's rules plus the service's own tables (`own`, given its periods). */
export function serviceRetention(dataSource: DataSource, config: Partial<ServiceConfig>, own: (periods: RetentionPeriods) => RetentionRule[] = () => []): RetentionSweep {
  const periods = retentionPeriods(config);
  return new RetentionSweep(dataSource, [...kitRetentionRules(periods), ...own(periods)], periods.sweepMs);
}

/**
 * Deletes what only grows (ADR 0046) every RETENTION_SWEEP_MS and at start, one replica at a time (the sweep's advisory
 * lock), in batches of a thousand rows each committed on its own, so no delete holds its locks for long. Audit records
 * have no rule: they are kept forever.
 */
export class RetentionSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Retention');
  private readonly periodic: PeriodicSweep<Record<string, number>>;
  private stopping = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: RetentionRule[],
    intervalMs: number,
  ) {
    for (const rule of rules) {
      if (!IDENTIFIER.test(rule.table) || !IDENTIFIER.test(rule.column)) throw new Error(`Invalid retention rule: ${rule.table}.${rule.column}`);
    }
    this.periodic = new PeriodicSweep({ label: 'Retention', intervalMs, logger: this.logger, onFailure: {}, lock: dataSource }, (now) => this.purge(now));
  }

  onApplicationBootstrap() {
    this.periodic.start(true);
  }

  // Before the kit closes the database at application shutdown.
  onModuleDestroy() {
    this.stopping = true;
    return this.periodic.stop();
  }

  /** One run (joined if one is under way, skipped if another replica runs it): rows deleted per table. */
  run(now = new Date()): Promise<Record<string, number>> {
    return this.periodic.run(now);
  }

  private async purge(now: Date): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const rule of this.rules) {
      const before = new Date(now.getTime() - rule.keepMs);
      deleted[rule.table] = 0;
      for (;;) {
        const count = await this.deleteBatch(rule, before);
        deleted[rule.table] += count;
        if (count < BATCH || this.stopping) break;
      }
      if (deleted[rule.table] > 0) this.logger.log(`Deleted ${deleted[rule.table]} ${rule.table} rows older than ${before.toISOString()}`);
    }
    return deleted;
  }

  private async deleteBatch(rule: RetentionRule, before: Date): Promise<number> {
    const [, count] = await this.dataSource.query(
      `DELETE FROM ${rule.table} WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM ${rule.table} WHERE ${rule.column} < $1 LIMIT ${BATCH}))`,
      [before],
    );
    return Number(count);
  }
}
