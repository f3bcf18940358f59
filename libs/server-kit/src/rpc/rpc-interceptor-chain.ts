import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { defer, from, isObservable, mergeAll, type Observable } from 'rxjs';

/**
 * The services' request interceptors as one Nest interceptor (ADR 0057). Nest wraps each global interceptor in a
 * deferred observable bound to an AsyncResource of its own, and on a cheap request those wrappers cost more than the
 * interceptors; here each interceptor gets the next one as its CallHandler, in the same order, started when its
 * caller subscribes to it, as Nest starts them.
 */
export class RpcInterceptorChain implements NestInterceptor {
  constructor(private readonly chain: readonly NestInterceptor[]) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return this.handler(context, next, 0).handle();
  }

  private handler(context: ExecutionContext, last: CallHandler, index: number): CallHandler {
    if (index === this.chain.length) return last;
    const interceptor = this.chain[index];
    return {
      handle: () =>
        defer(() => {
          const result = interceptor.intercept(context, this.handler(context, last, index + 1));
          return isObservable(result) ? result : from(result).pipe(mergeAll());
        }),
    };
  }
}
