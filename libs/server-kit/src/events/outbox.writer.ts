import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { z } from 'zod';
import { EVENT_SCHEMAS, type EventName, type EventPayloads } from '@market/contracts';
import { currentRequestId } from '../logging/request-context';
import { currentTraceparent } from '../tracing/trace-context';
import type { BusIdentity } from '../bus/bus-identity';
import { busCryptoReady } from '../bus/bus-box-keys';
import { eventSignature, type SignedEvent } from '../bus/bus-signatures';
import { sealEventFields } from './sealed-fields';

// The identity each service's events are sealed and signed with, by its database (several services share a test process).
const identities = new WeakMap<DataSource, BusIdentity>();

/** Seals and signs every event appended through `dataSource` as `identity` (the service's own key, D25); returns the data source. */
export function signEventsWith(identity: BusIdentity, dataSource: DataSource): DataSource {
  identities.set(dataSource, identity);
  return dataSource;
}

/** The identity events written through `dataSource` are sealed and signed with, if any (tests read their own outbox). */
export function writerIdentity(dataSource: DataSource): BusIdentity | undefined {
  return identities.get(dataSource);
}

function identityOf(manager: EntityManager, name: string): BusIdentity {
  const identity = identities.get(manager.connection);
  if (!identity) throw new Error(`${name}: this database has no signing key (ServiceKitModule signs events, ADR 0065)`);
  return identity;
}

/**
 * The signature of an event about to be written through `manager` (its service's key): an event is signed as it is
 * written, so the relay, or anyone who can write the outbox, cannot make an event its writer did not (ADR 0065).
 */
export function signEvent(manager: EntityManager, event: SignedEvent): { sender: string; signature: string } {
  return eventSignature(identityOf(manager, event.name).signer, event);
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
  // Private fields are sealed for their one reader before the row is written (ADR 0066): the outbox, the bus and the
  // stream hold them only sealed, and the signature covers the sealed form, as it is sent.
  await busCryptoReady();
  const sent = sealEventFields(identityOf(manager, name), name, payload);
  const { sender, signature } = signEvent(manager, { id, name, occurred_at: occurredAt, payload: sent });
  await manager.query(
    'INSERT INTO outbox (id, name, payload, request_id, traceparent, sender, signature, occurred_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [id, name, JSON.stringify(sent), currentRequestId(), currentTraceparent(), sender, signature, occurredAt],
  );
  return id;
}
