import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { RpcEnvelope } from '@market/contracts';
import { runWithRequestId } from '../logging/request-context';

/** Runs each NATS handler with the request id the gateway sent, so its log lines carry it. */
@Injectable()
export class RpcContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const envelope = context.switchToRpc().getData() as Partial<RpcEnvelope> | undefined;
    const requestId = envelope?.meta?.request_id;
    return new Observable((subscriber) =>
      runWithRequestId(requestId, () => next.handle().subscribe(subscriber)),
    );
  }
}
