import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import type { RpcEnvelope } from '@market/contracts';
import { runWithRequestId } from '../logging/request-context';
import { deadlineOf, expiredRequest, runWithDeadline } from './rpc-deadline';
import { handleInServerSpan } from '../tracing/rpc-tracing';
import { rpcSubject } from '../tracing/rpc-subject';

/**
 * Runs each NATS handler with the request id the gateway sent, so its log lines carry it, in a span continuing the
 * caller's trace (ADR 0049), and with the caller's deadline: a request whose caller has given up is not started
 * (ADR 0047).
 */
@Injectable()
export class RpcContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const envelope = context.switchToRpc().getData() as Partial<RpcEnvelope> | undefined;
    const requestId = envelope?.meta?.request_id;
    const deadline = deadlineOf(envelope?.meta);
    return new Observable((subscriber) =>
      runWithRequestId(requestId, () => {
        const refused = expiredRequest(subjectOf(context), deadline);
        if (refused) return throwError(() => refused).subscribe(subscriber);
        return runWithDeadline(deadline, () =>
          handleInServerSpan(rpcSubject(context), envelope?.meta?.traceparent, () => next.handle()).subscribe(subscriber),
        );
      }),
    );
  }
}

function subjectOf(context: ExecutionContext): string {
  const rpc = context.switchToRpc().getContext() as { getSubject?: () => string } | undefined;
  return rpc?.getSubject?.() ?? context.getHandler().name;
}
