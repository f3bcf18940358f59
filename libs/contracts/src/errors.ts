/** Stable error codes: the gateway maps them to HTTP statuses, the web may branch on them. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  // PostgreSQL refused, timed out or was unreachable; nothing was written (ADR 0044).
  database_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** How a service's typed error travels back over NATS. */
export interface RpcErrorPayload {
  code: ErrorCode;
  status: number;
  detail: string | ValidationIssue[];
  /** Seconds the caller should wait before trying again; the gateway sends it as Retry-After (ADR 0058). */
  retry_after?: number;
}

/** True when a value received from NATS is a typed service error. */
export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && v.code in ERROR_STATUS && typeof v.status === 'number' && 'detail' in v;
}
