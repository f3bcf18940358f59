import { randomUUID } from 'node:crypto';
import type { DataSource, MigrationInterface } from 'typeorm';
import type { NatsConnection } from 'nats';
import type { EventEnvelope } from '@market/contracts';
import { createTestDatabase, deleteStream, isolatedEnv, publishSignedEvent, testBusIdentity, type TestDatabase } from '../../testing';
import type { BusIdentity } from '../../bus/bus-identity';
import { openServiceDatabase } from '../../database/data-source';
import { CreateEventTables1763800000000 } from '../../database/1763800000000-create-event-tables';
import { connectNats } from '../../nats/nats.connection';
import { streamLimits } from '../../config/growth-env';
import { ensureEventStream, type EventStreamOptions } from '../jetstream';

/** A database with the event tables (and a test's own), a NATS connection and an event stream of its own. */
export interface EventRig {
  env: Record<string, string>;
  ds: DataSource;
  nc: NatsConnection;
  stream: EventStreamOptions;
  /** The rig's bus identity: what its consumers check signatures with (D25). */
  bus: BusIdentity;
  /** Publishes an envelope, signed by auth-service, as an outbox relay would; the same envelope again is a redelivery (a new message). */
  publish(event: EventEnvelope<'user.registered'>, msgId?: string): Promise<string>;
  stop(): Promise<void>;
}

/** A user.registered envelope for `username`, the event the kit's consumer tests send. */
export function userRegistered(username: string): EventEnvelope<'user.registered'> {
  return {
    id: randomUUID(),
    name: 'user.registered',
    occurred_at: new Date().toISOString(),
    request_id: null,
    payload: { user_id: randomUUID(), username, email: `${username}@example.com`, created_at: new Date().toISOString() },
  };
}

/** Opens an EventRig named `name` with the event tables and `migrations` in a schema of its own. */
export async function openEventRig(name: string, migrations: Array<new () => MigrationInterface>): Promise<EventRig> {
  const db: TestDatabase = await createTestDatabase(name);
  const env = isolatedEnv(db.url);
  const stream = { stream: env.EVENTS_STREAM, prefix: env.EVENTS_PREFIX };
  let ds: DataSource | undefined;
  let nc: NatsConnection | undefined;
  // Stops what was opened, in reverse, each part even when another fails to.
  const stop = async () => {
    const results = await Promise.allSettled([nc?.close(), ds?.destroy()]);
    results.push(...(await Promise.allSettled([deleteStream(env.NATS_URL, env.EVENTS_STREAM), db.drop()])));
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
  };
  try {
    ds = await openServiceDatabase({ url: db.url, schema: `kit_${name}`, entities: [], migrations: [CreateEventTables1763800000000, ...migrations] });
    nc = await connectNats(env.NATS_URL, `${name}-under-test`);
    await ensureEventStream(nc, stream, streamLimits({}));
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  const opened = { ds, nc };
  return {
    env,
    ds: opened.ds,
    nc: opened.nc,
    stream,
    // Its consumers read user.registered as notifications-service, its declared reader, does (ADR 0066).
    bus: testBusIdentity(env, 'notifications-service'),
    publish: async (event, msgId = randomUUID()) => {
      await publishSignedEvent(opened.nc, env, event, { msgID: msgId });
      return event.id;
    },
    stop,
  };
}
