import type { OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { JetStreamManager, NatsConnection } from 'nats';
import { deadLetterSubject, durableName, EVENT_NAMES, isEventParty, mayConsume } from '@market/contracts';
import type { ServiceConfig } from '../config/env';
import { collectedGauge, initProcessMetrics, type Sample } from './registry';
import { scrapeRead } from './single-flight';
import { boundedRead } from './bounded-read';

/** What TypeORM's postgres driver keeps in `master`: node-postgres's Pool and the counters it exposes. */
interface PgPoolCounters {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

// A scrape reads at most this many unpublished rows to count them; a larger backlog shows as this number.
export const OUTBOX_COUNT_LIMIT = 100_000;

/** Pool connections in use, idle and waited for, read from the pool itself (no query). */
export function poolSamples(dataSource: DataSource): Sample<'state'>[] {
  const pool = (dataSource.driver as unknown as { master?: PgPoolCounters }).master;
  if (!dataSource.isInitialized || !pool) return [];
  return [
    { labels: { state: 'in_use' }, value: pool.totalCount - pool.idleCount },
    { labels: { state: 'idle' }, value: pool.idleCount },
    { labels: { state: 'waiting' }, value: pool.waitingCount },
    { labels: { state: 'max' }, value: pool.options?.max ?? 0 },
  ];
}

/** The outbox's unpublished rows (capped at OUTBOX_COUNT_LIMIT) and the age in seconds of the oldest one. */
export async function outboxBacklog(dataSource: DataSource): Promise<{ backlog: number; oldestAgeSeconds: number }> {
  return boundedRead(dataSource, async (manager) => {
    const [row]: { backlog: number; oldest: number | null }[] = await manager.query(
      `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT ${OUTBOX_COUNT_LIMIT}) AS waiting) AS backlog,
              (SELECT extract(epoch FROM now() - occurred_at)::float8 FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT 1) AS oldest`,
    );
    return { backlog: row?.backlog ?? 0, oldestAgeSeconds: Math.max(0, row?.oldest ?? 0) };
  });
}

/**
 * The kit's gauges of one service (ADR 0048): its PostgreSQL pool, outbox backlog, JetStream consumers and dead
 * letters, each read on scrape with a timeout (see collectedGauge). Names the process in every sample.
 */
export class KitMetrics implements OnApplicationShutdown {
  private readonly removers: (() => void)[] = [];
  private jsm: Promise<JetStreamManager> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly nc: NatsConnection,
    private readonly config: Pick<ServiceConfig, 'EVENTS_STREAM' | 'EVENTS_PREFIX' | 'METRICS_READ_REUSE_MS'>,
    private readonly service: string,
  ) {
    initProcessMetrics(service, { readReuseMs: config.METRICS_READ_REUSE_MS });
    const outbox = scrapeRead(() => outboxBacklog(this.dataSource));
    const consumers = scrapeRead(() => this.consumerInfos());
    const deadLetters = scrapeRead(() => this.deadLetterCount());
    this.removers.push(
      collectedGauge({ name: 'market_db_pool_connections', help: 'PostgreSQL pool connections by state (in_use, idle, waiting requests, max)', labelNames: ['state'] }, () =>
        poolSamples(this.dataSource),
      ),
      collectedGauge({ name: 'market_outbox_backlog', help: `Outbox events not yet published (counted up to ${OUTBOX_COUNT_LIMIT})` }, async () => [
        { labels: {}, value: (await outbox()).backlog },
      ]),
      collectedGauge({ name: 'market_outbox_oldest_age_seconds', help: 'Age of the oldest unpublished outbox event; 0 when none waits' }, async () => [
        { labels: {}, value: (await outbox()).oldestAgeSeconds },
      ]),
      collectedGauge({ name: 'market_jetstream_consumer_pending', help: 'Events on the stream a durable consumer has not been given yet', labelNames: ['durable'] }, async () =>
        (await consumers()).map((c) => ({ labels: { durable: c.durable }, value: c.pending })),
      ),
      collectedGauge({ name: 'market_jetstream_consumer_ack_pending', help: 'Events given to a durable consumer and not acknowledged yet', labelNames: ['durable'] }, async () =>
        (await consumers()).map((c) => ({ labels: { durable: c.durable }, value: c.ackPending })),
      ),
      collectedGauge({ name: 'market_jetstream_consumer_redelivered', help: 'Events a durable consumer is being given again (failed or not acknowledged in time)', labelNames: ['durable'] }, async () =>
        (await consumers()).map((c) => ({ labels: { durable: c.durable }, value: c.redelivered })),
      ),
      collectedGauge({ name: 'market_dead_letters', help: "Messages on this service's dead-letter subject in the events stream", labelNames: ['consumer'] }, async () => {
        const count = await deadLetters();
        return count === null ? [] : [{ labels: { consumer: this.service }, value: count }];
      }),
    );
  }

  onApplicationShutdown() {
    for (const remove of this.removers) remove();
  }

  /** The durables this service runs: one per event contracts say it consumes. */
  private durables(): string[] {
    const party = this.service;
    if (!isEventParty(party)) return [];
    return EVENT_NAMES.filter((name) => mayConsume(party, name)).map((name) => durableName(party, name));
  }

  private manager(): Promise<JetStreamManager> {
    if (this.nc.isClosed()) throw new Error('NATS connection closed');
    this.jsm ??= this.nc.jetstreamManager().catch((error: unknown) => {
      this.jsm = null;
      throw error;
    });
    return this.jsm;
  }

  private async consumerInfos(): Promise<{ durable: string; pending: number; ackPending: number; redelivered: number }[]> {
    const durables = this.durables();
    if (durables.length === 0) return [];
    const jsm = await this.manager();
    const infos = await Promise.allSettled(durables.map((durable) => jsm.consumers.info(this.config.EVENTS_STREAM, durable)));
    // A durable not created yet (its subscription still starting) is left out rather than failing the others.
    return infos.flatMap((info) =>
      info.status === 'fulfilled'
        ? [{ durable: info.value.name, pending: info.value.num_pending, ackPending: info.value.num_ack_pending, redelivered: info.value.num_redelivered }]
        : [],
    );
  }

  private async deadLetterCount(): Promise<number | null> {
    if (!isEventParty(this.service) || this.durables().length === 0) return null;
    const subject = deadLetterSubject(this.config.EVENTS_PREFIX, this.service);
    const jsm = await this.manager();
    const info = await jsm.streams.info(this.config.EVENTS_STREAM, { subjects_filter: subject });
    return info.state.subjects?.[subject] ?? 0;
  }
}
