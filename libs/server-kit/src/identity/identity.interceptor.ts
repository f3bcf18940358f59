import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { from, mergeMap, type Observable } from 'rxjs';
import type { IdentityVerifier } from './identity-verifier';

/** Where the verified caller of a NATS request is kept on its message for @RpcHandler (never read from the message). */
export const VERIFIED_ACTOR = Symbol('verified-actor');

/**
 * Derives the caller of every NATS request from the token it carries, before the handler runs (ADR 0030). Whatever else
 * the message says about its sender is ignored; a bad or ended token is a 401.
 */
@Injectable()
export class IdentityInterceptor implements NestInterceptor {
  constructor(private readonly verifier: IdentityVerifier) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const message = context.switchToRpc().getData() as Record<string | symbol, unknown> | null;
    const meta = (message?.meta ?? null) as { token?: unknown } | null;
    const token = typeof meta?.token === 'string' ? meta.token : null;
    return from(this.verifier.actorFrom(token)).pipe(
      mergeMap((actor) => {
        if (message && typeof message === 'object') Object.defineProperty(message, VERIFIED_ACTOR, { value: actor, enumerable: false });
        return next.handle();
      }),
    );
  }
}
