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
  // The system turned the request away on purpose to stay up (a full bid queue, a busy listing, no upload slot): a 503
  // with Retry-After that spends the shed budget, not the availability one (docs/slo.md).
  overloaded: 503,
  // PostgreSQL refused, timed out or was unreachable; nothing was written (ADR 0044).
  database_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * A per-client quota that refused a request, told in the IETF RateLimit-Policy and RateLimit header fields
 * (draft-ietf-httpapi-ratelimit-headers; ADR 0064): a limit is a 429, never a 503.
 */
export interface RateLimitState {
  /** The quota's name, a lower-case token ("login-account", "uploads"). */
  policy: string;
  /** Requests allowed in the window, or requests allowed at once for a concurrency quota. */
  quota: number;
  /** The window in seconds; absent for a concurrency quota. */
  window_seconds?: number;
  unit: 'requests' | 'concurrent-requests';
  /** Requests left now (0 when refused). */
  remaining: number;
  /** Seconds until the quota has room again (the window's end, or a fair guess for a concurrency quota). */
  reset_seconds: number;
}

const POLICY_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
// A header states whole numbers in at most 15 digits (RFC 9651); no quota or wait of ours comes near 1e9.
const wholeAtLeast = (value: unknown, min: number) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= 1e9;

/** True when a value is a well-formed RateLimitState (it travels over NATS and becomes headers). */
export function isRateLimitState(value: unknown): value is RateLimitState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.policy === 'string' &&
    POLICY_NAME.test(v.policy) &&
    wholeAtLeast(v.quota, 1) &&
    (v.window_seconds === undefined || wholeAtLeast(v.window_seconds, 1)) &&
    (v.unit === 'requests' || v.unit === 'concurrent-requests') &&
    wholeAtLeast(v.remaining, 0) &&
    wholeAtLeast(v.reset_seconds, 0)
  );
}

/** How a service's typed error travels back over NATS. */
export interface RpcErrorPayload {
  code: ErrorCode;
  status: number;
  detail: string | ValidationIssue[];
  /** Seconds the caller should wait before trying again; the gateway sends it as Retry-After (ADR 0058). */
  retry_after?: number;
  /** The quota that refused a 429; the gateway sends it as RateLimit-Policy and RateLimit (ADR 0064). */
  rate_limit?: RateLimitState;
  /**
   * Set when the bus refused the request itself (unsigned, expired, a sender contracts do not allow; ADR 0065): the
   * calling process's trouble, never its caller's, so it answers its own caller 503.
   */
  bus?: true;
}

/** True when a value received from NATS is a typed service error. */
export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && v.code in ERROR_STATUS && typeof v.status === 'number' && 'detail' in v;
}
