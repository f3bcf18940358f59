import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContext {
  request_id: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn with a request id that every log line inside it carries. */
export function runWithRequestId<T>(requestId: string | null | undefined, fn: () => T): T {
  return storage.run({ request_id: requestId || randomUUID() }, fn);
}

/** The request id of the work in progress, if any. */
export function currentRequestId(): string | null {
  return storage.getStore()?.request_id ?? null;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

/** Accepts a caller's X-Request-Id only when it is a sane token, otherwise makes one. */
export function acceptRequestId(candidate: unknown): string {
  return typeof candidate === 'string' && REQUEST_ID_PATTERN.test(candidate) ? candidate : randomUUID();
}
