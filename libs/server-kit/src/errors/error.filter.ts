import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';
import type { Response } from 'express';
import { ERROR_CODES, PROBLEM_MEDIA_TYPE, problemOf, type ErrorCode, type RpcErrorPayload } from '@market/contracts';
import { AppError } from './app-error';
import { databaseUnavailable, isDatabaseUnavailable } from './database-failure';
import { setRateLimitHeaders } from './rate-limit-fields';

const HIDDEN: RpcErrorPayload = { code: 'internal', status: 500, detail: 'Internal server error' };

// A framework exception (an unknown route, a bad method) is named by its status; one the list has no code for is a
// bad request as far as the client can act on it (ADR 0079).
const CODE_OF_STATUS = new Map<number, ErrorCode>(
  (Object.entries(ERROR_CODES) as [ErrorCode, { status: number }][]).filter(([, info]) => info.status < 500).map(([code, info]) => [info.status, code]),
);

/** Maps any thrown value to the public error shape; 5xx details are logged and never shown. */
export function toErrorPayload(exception: unknown, logger: Logger): RpcErrorPayload {
  if (exception instanceof AppError) {
    // A 503 is an expected answer under faults (ADR 0044); whoever raised it has logged why.
    if (exception.status >= 500 && exception.status !== 503) logger.error(exception);
    return exception.toPayload();
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status >= 500) {
      logger.error(exception);
      return HIDDEN;
    }
    const body = exception.getResponse();
    const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
    const detail = typeof message === 'string' ? message : Array.isArray(message) ? message.join(', ') : exception.message;
    return { code: CODE_OF_STATUS.get(status) ?? 'bad_request', status, detail };
  }
  if (isDatabaseUnavailable(exception)) {
    logger.warn(`Database unavailable: ${(exception as Error).message}`);
    return databaseUnavailable().toPayload();
  }
  logger.error(exception instanceof Error ? exception : String(exception));
  return HIDDEN;
}

/** One filter for both transports: HTTP answers RFC 9457 problem details with {detail}; NATS replies carry a typed payload. */
@Catch()
export class AllErrorsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    const payload = toErrorPayload(exception, this.logger);
    if (host.getType() === 'rpc') return throwError(() => payload);
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    if (payload.retry_after !== undefined) response.setHeader('Retry-After', String(payload.retry_after));
    // A deliberate shed is told apart from an outage in the HTTP metrics (docs/slo.md: it has its own budget).
    if (payload.code === 'overloaded') response.locals.shed = true;
    if (payload.rate_limit !== undefined) setRateLimitHeaders(response, [payload.rate_limit]);
    response.status(payload.status).type(PROBLEM_MEDIA_TYPE).json(problemOf(payload));
  }
}
