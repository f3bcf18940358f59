import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import { AppError } from '../errors/app-error';

const storage = new AsyncLocalStorage<{ deadline: number | null }>();
const logger = new Logger('RpcDeadline');

/** The caller's deadline from an envelope's meta, when it sent a sane one. */
export function deadlineOf(meta: unknown): number | null {
  const deadline = (meta as { deadline?: unknown } | null | undefined)?.deadline;
  return typeof deadline === 'number' && Number.isFinite(deadline) && deadline > 0 ? deadline : null;
}

/**
 * Refuses a request whose caller has already given up (ADR 0047): the 503 goes to nobody, the log line says it was
 * dropped. Null when the work may start.
 */
export function expiredRequest(subject: string, deadline: number | null, now = Date.now()): AppError | null {
  if (deadline === null || now <= deadline) return null;
  logger.warn({ msg: 'request dropped: its caller has given up', subject, late_ms: now - deadline });
  return new AppError('unavailable', 'The caller stopped waiting for this request');
}

/** Runs a handler with its caller's deadline, which long handlers check with `throwIfCallerGone`. */
export function runWithDeadline<T>(deadline: number | null, fn: () => T): T {
  return storage.run({ deadline }, fn);
}

/** The current request's deadline (epoch ms), or null outside a request or when the caller sent none. */
export function currentDeadline(): number | null {
  return storage.getStore()?.deadline ?? null;
}

/** For long handlers between steps: stops work whose caller has given up (nothing is changed after this point). */
export function throwIfCallerGone(subject: string): void {
  const refused = expiredRequest(subject, currentDeadline());
  if (refused) throw refused;
}
