import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { JSONCodec, type JetStreamClient, type NatsConnection } from 'nats';
import { SECRET_PAYLOAD_KEYS, type EventEnvelope } from '@market/contracts';
import { eventSubject, type EventStreamOptions } from './jetstream';
import { recordOutboxFailure } from './outbox-failure';
import { publishInSpan } from '../tracing/event-tracing';
import { eventHeaders } from '../bus/bus-signatures';

interface OutboxRow {
  seq: string;
  id: string;
  name: EventEnvelope['name'];
  payload: EventEnvelope['payload'];
  request_id: string | null;
  traceparent: string | null;
  occurred_at: Date;
  sender: string | null;
  signature: string | null;
}

const BATCH = 100;
const IDLE_MS = 250;
const MAX_BACKOFF_MS = 5000;
const PUBLISH_TIMEOUT_MS = 2000;

/** Publishes outbox rows to JetStream in order, with the event id as message id, and marks them published. */
export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');
  private readonly codec = JSONCodec<EventEnvelope>();
  private readonly js: JetStreamClient;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    nc: NatsConnection,
    private readonly stream: EventStreamOptions,
  ) {
    this.js = nc.jetstream();
  }

  /** Starts the relay loop. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Asks the relay to look at the outbox now rather than at its next poll. */
  kick(): void {
    this.wake?.();
  }

  /** Stops after the batch in progress. */
  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
  }

  /**
   * Publishes what is waiting once: how many events went out, and the failure that stopped the batch, if any. The
   * failed row's attempt count and error are written after the batch in a statement of their own (ADR 0046), so a
   * batch whose transaction fails as a whole still leaves its failure counted.
   */
  async publishPending(): Promise<{ published: number; failure: Error | null }> {
    const inHand: { seq: string | null } = { seq: null };
    let batch: { published: number; failure: Error | null };
    try {
      batch = await this.publishBatch(inHand);
    } catch (error) {
      await recordOutboxFailure(this.dataSource, inHand.seq, error, this.logger);
      throw error;
    }
    if (batch.failure) await recordOutboxFailure(this.dataSource, inHand.seq, batch.failure, this.logger);
    return batch;
  }

  private publishBatch(inHand: { seq: string | null }): Promise<{ published: number; failure: Error | null }> {
    return this.dataSource.transaction(async (manager) => {
      const rows: OutboxRow[] = await manager.query(
        `SELECT seq, id, name, payload, request_id, traceparent, occurred_at, sender, signature FROM outbox
         WHERE published_at IS NULL ORDER BY seq LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      const sent: string[] = [];
      let failure: Error | null = null;
      for (const row of rows) {
        inHand.seq = row.seq;
        const envelope: EventEnvelope = {
          id: row.id,
          name: row.name,
          occurred_at: new Date(row.occurred_at).toISOString(),
          request_id: row.request_id,
          payload: row.payload,
        };
        try {
          await publishInSpan(row, (headers) => this.js.publish(eventSubject(this.stream.prefix, row.name), this.codec.encode(envelope), {
            msgID: row.id,
            timeout: PUBLISH_TIMEOUT_MS,
            // The signature made when the event was written goes with it; a row without one goes out unsigned, and its
            // consumers dead-letter it (ADR 0065).
            headers: row.sender && row.signature ? eventHeaders(row.sender, row.signature, headers) : headers,
          }));
        } catch (error) {
          // Keep order: stop at the first failure; what went out before it is marked below.
          failure = error instanceof Error ? error : new Error(String(error));
          break;
        }
        sent.push(row.seq);
      }
      if (sent.length > 0) {
        // Marked in one statement, in the batch's transaction as before: a row per statement was half the relay's
        // round trips (ADR 0062). A marking that fails is counted on the last row it marked.
        const failed = inHand.seq;
        inHand.seq = sent[sent.length - 1];
        // One-time tokens leave the database with the message: the outbox keeps no secret once published.
        await manager.query('UPDATE outbox SET published_at = now(), payload = payload - $2::text[] WHERE seq = ANY($1::bigint[])', [sent, SECRET_PAYLOAD_KEYS]);
        inHand.seq = failed;
      }
      if (!failure) inHand.seq = null;
      return { published: sent.length, failure };
    });
  }

  private async run(): Promise<void> {
    let backoff = IDLE_MS;
    while (this.running) {
      let published = 0;
      try {
        const batch = await this.publishPending();
        published = batch.published;
        if (batch.failure && published === 0) throw batch.failure;
        backoff = IDLE_MS;
      } catch (error) {
        this.logger.warn(`Outbox publish failed, retrying in ${backoff} ms: ${(error as Error).message}`);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
      if (published === BATCH || !this.running) continue;
      await this.sleep(backoff);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => {
        if (this.timer) clearTimeout(this.timer);
        this.wake = null;
        resolve();
      };
      this.timer = setTimeout(() => this.wake?.(), ms);
    });
  }
}
