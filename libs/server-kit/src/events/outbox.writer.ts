import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import { EVENT_SCHEMAS, type EventName, type EventPayloads } from '@market/contracts';
import { currentRequestId } from '../logging/request-context';
import { currentTraceparent } from '../tracing/trace-context';

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
  await manager.query('INSERT INTO outbox (id, name, payload, request_id, traceparent) VALUES ($1, $2, $3, $4, $5)', [
    id,
    name,
    JSON.stringify(payload),
    currentRequestId(),
    currentTraceparent(),
  ]);
  return id;
}
