import { ERROR_STATUS, type ErrorCode, type RpcErrorPayload, type ValidationIssue } from '@market/contracts';

/** A typed failure with an HTTP status and a stable code; the filters turn it into {detail}. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string | ValidationIssue[],
  ) {
    super(typeof detail === 'string' ? detail : 'Validation failed');
    this.status = ERROR_STATUS[code];
  }

  toPayload(): RpcErrorPayload {
    return { code: this.code, status: this.status, detail: this.detail };
  }

  static fromPayload(payload: RpcErrorPayload): AppError {
    return new AppError(payload.code, payload.detail);
  }
}

export const badRequest = (detail: string) => new AppError('bad_request', detail);
export const unauthorized = (detail = 'Not authenticated') => new AppError('unauthorized', detail);
export const forbidden = (detail = 'You do not have permission to perform this action') => new AppError('forbidden', detail);
export const notFound = (detail = 'Not found') => new AppError('not_found', detail);
export const conflict = (detail: string) => new AppError('conflict', detail);
export const unavailable = (detail = 'Service temporarily unavailable, please try again') => new AppError('unavailable', detail);
