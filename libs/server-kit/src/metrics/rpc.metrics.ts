import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
import type { NatsContext } from '@nestjs/microservices';
import { AppError } from '../errors/app-error';
import { isDatabaseUnavailable } from '../errors/database-failure';
import { histogram, LATENCY_BUCKETS } from './registry';

const clientDuration = () =>
  histogram({
    name: 'market_nats_client_request_duration_seconds',
    help: 'NATS requests this process sent, by subject and outcome (ok or the error code), until the answer or the timeout',
    labelNames: ['subject', 'outcome'],
    buckets: LATENCY_BUCKETS,
  });

const serverDuration = () =>
  histogram({
    name: 'market_nats_server_request_duration_seconds',
    help: 'NATS requests this service answered, by subject and outcome (ok or the error code)',
    labelNames: ['subject', 'outcome'],
    buckets: LATENCY_BUCKETS,
  });

/** The outcome label of a failure: an AppError's stable code, database_unavailable as the filter answers it, else internal. */
export function outcomeOf(error: unknown): string {
  if (error instanceof AppError) return error.code;
  return isDatabaseUnavailable(error) ? 'database_unavailable' : 'internal';
}

/** Runs one client request and records its duration by subject and outcome (ADR 0048). */
export async function observeRpcCall<T>(subject: string, send: () => Promise<T>): Promise<T> {
  const end = clientDuration().startTimer({ subject });
  try {
    const reply = await send();
    end({ outcome: 'ok' });
    return reply;
  } catch (error) {
    end({ outcome: outcomeOf(error) });
    throw error;
  }
}

/**
 * Records every NATS request a service answers by subject (its declared name, without NATS_SUBJECT_PREFIX) and outcome.
 * Registered first, so it times the identity check and the handler alike.
 */
@Injectable()
export class RpcMetricsInterceptor implements NestInterceptor {
  constructor(private readonly prefix = '') {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const subject = this.subjectOf(context);
    const end = serverDuration().startTimer({ subject });
    return next.handle().pipe(
      tap({
        complete: () => end({ outcome: 'ok' }),
        error: (error: unknown) => end({ outcome: outcomeOf(error) }),
      }),
    );
  }

  private subjectOf(context: ExecutionContext): string {
    const subject = (context.switchToRpc().getContext() as NatsContext | undefined)?.getSubject?.() ?? 'unknown';
    return this.prefix && subject.startsWith(this.prefix) ? subject.slice(this.prefix.length) : subject;
  }
}
