import { AppError } from './app-error';

// SQLSTATEs that say PostgreSQL could not do the work now, not that the request was wrong (ADR 0044).
const TRANSIENT_STATES = new Set([
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '25P03', // idle_in_transaction_session_timeout
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
]);
// Class 08 (connection exception) and 53 (insufficient resources, 53300 too_many_connections).
const TRANSIENT_CLASSES = ['08', '53'];
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// What pg and pg-pool say when a connection could not be had in time or broke under a query.
const DRIVER_MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated/,
  /^timeout expired$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/** The stable error a request gets when PostgreSQL is unreachable, overloaded or too slow. */
export const databaseUnavailable = () => new AppError('database_unavailable', 'The service is busy right now; please try again in a moment.');

/** True when an error (pg's, or TypeORM's wrapping one) means the database could not serve now, not a bug or bad input. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth += 1) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (TRANSIENT_STATES.has(code) || (code.length === 5 && TRANSIENT_CLASSES.includes(code.slice(0, 2))) || SOCKET_CODES.has(code)) return true;
    if (typeof e.message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(e!.message as string))) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}
