/** What one error code means: its HTTP status, a short title, and when a client gets it. */
export interface ErrorCodeInfo {
  readonly status: number;
  readonly title: string;
  readonly description: string;
}

/**
 * Every stable error code of the API, one list (ADR 0079): the `code` of an error body, its RFC 9457 `type`
 * (`/api/errors/<code>`) and `title`. A client branches on `code`; `detail` is for people. Codes are only ever added.
 */
export const ERROR_CODES = {
  bad_request: { status: 400, title: 'Bad request', description: 'The request cannot be done as asked (a rule of the marketplace refuses it); detail says why.' },
  unauthorized: { status: 401, title: 'Not authenticated', description: 'No valid access token, or its session has ended: sign in again.' },
  forbidden: { status: 403, title: 'Forbidden', description: 'Signed in, but this account may not do this (an admin route, a suspended account, an impersonation limit).' },
  not_found: { status: 404, title: 'Not found', description: 'No such resource, or not one this caller may see: another user\'s private ids answer this too.' },
  request_timeout: { status: 408, title: 'Upload too slow', description: 'A multipart upload did not arrive in time, in all or after a long pause; send it again.' },
  conflict: { status: 409, title: 'Conflict', description: 'The request conflicts with the current state (outbid, already paid, a name taken, an Idempotency-Key still running).' },
  payload_too_large: { status: 413, title: 'Request too large', description: 'The body or one of its files is larger than the route allows.' },
  unsupported_media_type: { status: 415, title: 'Unsupported body encoding', description: 'The request body is sent in an encoding the gateway does not read (it reads identity, gzip, deflate and br).' },
  validation_failed: {
    status: 422,
    title: 'Validation failed',
    description: 'The path, query or body does not match the route\'s schema, or the body is not JSON: detail and errors list each problem with its location.',
  },
  rate_limited: {
    status: 429,
    title: 'Limit reached',
    description: 'A per-client limit was reached; Retry-After says when to try again, RateLimit-Policy and RateLimit which quota (ADR 0064).',
  },
  internal: { status: 500, title: 'Internal server error', description: 'A fault of ours, logged with the request id; nothing is said about it.' },
  unavailable: { status: 503, title: 'Service unavailable', description: 'A service or dependency the request needs is down or too slow; nothing was done, try again.' },
  // The system turned the request away on purpose to stay up (a full bid queue, a busy listing, no upload slot): a 503
  // with Retry-After that spends the shed budget, not the availability one (docs/slo.md).
  overloaded: { status: 503, title: 'Overloaded', description: 'Turned away on purpose to stay up (too many bids waiting on a listing, the gateway\'s uploads full); try again after Retry-After.' },
  // PostgreSQL refused, timed out or was unreachable; nothing was written (ADR 0044).
  database_unavailable: { status: 503, title: 'Database unavailable', description: 'The database did not answer in time; nothing was written, try again.' },
} as const satisfies Record<string, ErrorCodeInfo>;
export type ErrorCode = keyof typeof ERROR_CODES;

/** Stable error codes and their HTTP statuses: the gateway maps them to HTTP statuses, the web may branch on them. */
export const ERROR_STATUS = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, info]) => [code, info.status])) as {
  readonly [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'];
};

/** The RFC 9457 `type` of an error code: a relative URI the API answers with the code's description. */
export const errorTypeOf = (code: ErrorCode): string => `/api/errors/${code}`;

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
  return typeof v.code === 'string' && Object.hasOwn(ERROR_CODES, v.code) && typeof v.status === 'number' && 'detail' in v;
}

/** An error body (RFC 9457 problem details, media type application/problem+json) with the SPEC's `detail`. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string | ValidationIssue[];
  /** A 422's issues again, under the member name RFC 9457's example uses, for clients that expect `detail` to be text. */
  errors?: ValidationIssue[];
}

/** The public error body of a typed error: `detail` as the SPEC has it, plus RFC 9457's fields and the stable code. */
export function problemOf(payload: Pick<RpcErrorPayload, 'code' | 'status' | 'detail'>): ProblemBody {
  const body: ProblemBody = { type: errorTypeOf(payload.code), title: ERROR_CODES[payload.code].title, status: payload.status, code: payload.code, detail: payload.detail };
  if (Array.isArray(payload.detail)) body.errors = payload.detail;
  return body;
}

/** The media type of every error body (RFC 9457). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** One code as GET /api/errors tells it. */
export interface ErrorCodeEntry {
  code: ErrorCode;
  type: string;
  status: number;
  title: string;
  description: string;
}

/** Every code of the list, in its order, as GET /api/errors answers them. */
export function errorCodeList(): ErrorCodeEntry[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => ({ code, type: errorTypeOf(code), ...ERROR_CODES[code] }));
}

/** What one code means, as GET /api/errors/{code} answers it; null for a code the list does not have. */
export function errorCodeInfo(code: string): ErrorCodeEntry | null {
  return errorCodeList().find((entry) => entry.code === code) ?? null;
}
