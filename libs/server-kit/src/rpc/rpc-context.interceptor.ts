import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { RpcEnvelope } from '@market/contracts';
import { runWithRequestId } from '../logging/request-context';
import { handleInServerSpan } from '../tracing/rpc-tracing';
import { rpcSubject } from '../tracing/rpc-subject';

/** Runs each NATS handler with the request id the gateway sent (its log lines carry it), in a span continuing its trace. */
@Injectable()
export class RpcContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const envelope = context.switchToRpc().getData() as Partial<RpcEnvelope> | undefined;
    const requestId = envelope?.meta?.request_id;
    return new Observable((subscriber) =>
      runWithRequestId(requestId, () => handleInServerSpan(rpcSubject(context), envelope?.meta?.traceparent, () => next.handle()).subscribe(subscriber)),
    );
  }
}
