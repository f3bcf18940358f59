import { ERROR_STATUS, type ErrorCode, type RpcErrorPayload, type ValidationIssue } from '@market/contracts';

/** A typed failure with an HTTP status and a stable code; the filters turn it into {detail}. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string | ValidationIssue[],
    /** Seconds to wait before trying again: travels over NATS and becomes the Retry-After header (ADR 0058). */
    readonly retryAfter?: number,
  ) {
    super(typeof detail === 'string' ? detail : 'Validation failed');
    this.status = ERROR_STATUS[code];
  }

  toPayload(): RpcErrorPayload {
    return this.retryAfter === undefined
      ? { code: this.code, status: this.status, detail: this.detail }
      : { code: this.code, status: this.status, detail: this.detail, retry_after: this.retryAfter };
  }

  static fromPayload(payload: RpcErrorPayload): AppError {
    const retryAfter = typeof payload.retry_after === 'number' && payload.retry_after > 0 ? Math.ceil(payload.retry_after) : undefined;
    return new AppError(payload.code, payload.detail, retryAfter);
  }
}

export const badRequest = (detail: string) => new AppError('bad_request', detail);
export const unauthorized = (detail = 'Not authenticated') => new AppError('unauthorized', detail);
export const forbidden = (detail = 'You do not have permission to perform this action') => new AppError('forbidden', detail);
export const notFound = (detail = 'Not found') => new AppError('not_found', detail);
export const conflict = (detail: string) => new AppError('conflict', detail);
export const unavailable = (detail = 'Service temporarily unavailable, please try again', retryAfter?: number) => new AppError('unavailable', detail, retryAfter);
