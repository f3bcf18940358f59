import { ERROR_STATUS, isRateLimitState, type ErrorCode, type RateLimitState, type RpcErrorPayload, type ValidationIssue } from '@market/contracts';

/** A typed failure with an HTTP status and a stable code; the filters turn it into {detail}. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string | ValidationIssue[],
    /** Seconds to wait before trying again: travels over NATS and becomes the Retry-After header (ADR 0058). */
    readonly retryAfter?: number,
    /** The quota that refused a 429: becomes the RateLimit-Policy and RateLimit headers (ADR 0064). */
    readonly rateLimit?: RateLimitState,
  ) {
    super(typeof detail === 'string' ? detail : 'Validation failed');
    this.status = ERROR_STATUS[code];
  }

  toPayload(): RpcErrorPayload {
    const payload: RpcErrorPayload = { code: this.code, status: this.status, detail: this.detail };
    if (this.retryAfter !== undefined) payload.retry_after = this.retryAfter;
    if (this.rateLimit !== undefined) payload.rate_limit = this.rateLimit;
    return payload;
  }

  static fromPayload(payload: RpcErrorPayload): AppError {
    // Whole seconds that a header can state; anything else is dropped rather than sent.
    const retryAfter = typeof payload.retry_after === 'number' && payload.retry_after > 0 && payload.retry_after <= 1e9 ? Math.ceil(payload.retry_after) : undefined;
    // Only a 429 carries a quota, and only a well-formed one becomes headers.
    const rateLimit = payload.code === 'rate_limited' && isRateLimitState(payload.rate_limit) ? payload.rate_limit : undefined;
    return new AppError(payload.code, payload.detail, retryAfter, rateLimit);
  }
}

export const badRequest = (detail: string) => new AppError('bad_request', detail);
export const unauthorized = (detail = 'Not authenticated') => new AppError('unauthorized', detail);
export const forbidden = (detail = 'You do not have permission to perform this action') => new AppError('forbidden', detail);
export const notFound = (detail = 'Not found') => new AppError('not_found', detail);
export const conflict = (detail: string) => new AppError('conflict', detail);
/** A per-client quota refused the request: 429 with Retry-After and the RateLimit headers (ADR 0064). */
export const rateLimited = (detail: string, state: RateLimitState) =>
  new AppError('rate_limited', detail, Math.max(1, state.reset_seconds), { ...state, remaining: 0 });
export const unavailable = (detail = 'Service temporarily unavailable, please try again', retryAfter?: number) => new AppError('unavailable', detail, retryAfter);
/** Turned away on purpose to protect the system (a shed, docs/slo.md): 503 with Retry-After, counted apart from outages. */
export const overloaded = (detail: string, retryAfter?: number) => new AppError('overloaded', detail, retryAfter);
