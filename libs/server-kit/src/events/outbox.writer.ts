import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { z } from 'zod';
import { EVENT_SCHEMAS, type EventName, type EventPayloads } from '@market/contracts';
import { currentRequestId } from '../logging/request-context';
import { currentTraceparent } from '../tracing/trace-context';
import type { BusSigner } from '../bus/bus-keys';
import { eventSignature, type SignedEvent } from '../bus/bus-signatures';

// The key each service's events are signed with, by its database (several services share a test process).
const signers = new WeakMap<DataSource, BusSigner>();

/** Signs every event appended through `dataSource` with `signer` (the service's own key, D25); returns the data source. */
export function signEventsWith(signer: BusSigner, dataSource: DataSource): DataSource {
  signers.set(dataSource, signer);
  return dataSource;
}

/**
 * The signature of an event about to be written through `manager` (its service's key): an event is signed as it is
 * written, so the relay, or anyone who can write the outbox, cannot make an event its writer did not (ADR 0065).
 */
export function signEvent(manager: EntityManager, event: SignedEvent): { sender: string; signature: string } {
  const signer = signers.get(manager.connection);
  if (!signer) throw new Error(`${event.name}: this database has no signing key (ServiceKitModule signs events, ADR 0065)`);
  return eventSignature(signer, event);
}

/** Checks an event's payload against its schema before it is written: a payload its consumers would refuse is a bug here. */
export function checkEventPayload<N extends EventName>(name: N, payload: unknown, schema: z.ZodType = EVENT_SCHEMAS[name]): void {
  const checked = schema.safeParse(payload);
  if (!checked.success) throw new Error(`${name}: the payload does not match its schema: ${checked.error.message}`);
}

/** Records an event in the outbox inside the caller's transaction, so the change and its event commit together. */
export async function appendEvent<N extends EventName>(
  manager: EntityManager,
  name: N,
  payload: EventPayloads[N],
): Promise<string> {
  if (!manager.queryRunner?.isTransactionActive) {
    throw new Error(`appendEvent(${name}) must run inside a transaction`);
  }
  // An event that would be dead-lettered by its consumers is a bug here: refuse it before the change commits (ADR 0028).
  checkEventPayload(name, payload);
  const id = randomUUID();
  // The time is set here, not by the database, so that it is signed with the rest (to the millisecond, as published).
  const occurredAt = new Date().toISOString();
  const { sender, signature } = signEvent(manager, { id, name, occurred_at: occurredAt, payload });
  await manager.query(
    'INSERT INTO outbox (id, name, payload, request_id, traceparent, sender, signature, occurred_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [id, name, JSON.stringify(payload), currentRequestId(), currentTraceparent(), sender, signature, occurredAt],
  );
  return id;
}
