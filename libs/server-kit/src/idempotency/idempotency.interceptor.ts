import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { catchError, from, mergeMap, of, throwError, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import { AppError, badRequest, conflict } from '../errors/app-error';
import { VERIFIED_ACTOR } from '../identity/identity.interceptor';
import { IdempotencyKeysRepository, type IdempotencyScope } from './idempotency-keys.repository';
import { IDEMPOTENCY_KEY_RULE, isIdempotencyKey, requestFingerprint } from './idempotency-key';

interface KeyedMessage {
  meta?: { idempotency_key?: unknown; idempotency_fingerprint?: unknown };
  data?: unknown;
}

/**
 * Answers a retried write once (ADR 0047): a NATS request carrying an Idempotency-Key claims it in the service's own
 * database before the handler runs; a retry gets the first answer, a different request under the same key a 422, and a
 * retry while the first still runs a 409. Requests without a key, or without a verified caller, pass untouched.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly keys: IdempotencyKeysRepository;
  private readonly logger = new Logger('Idempotency');

  constructor(dataSource: DataSource) {
    this.keys = new IdempotencyKeysRepository(dataSource);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const message = context.switchToRpc().getData() as KeyedMessage | null;
    const key = message?.meta?.idempotency_key;
    if (key === undefined || key === null) return next.handle();
    if (!isIdempotencyKey(key)) return throwError(() => badRequest(IDEMPOTENCY_KEY_RULE));
    const actor = (message as Record<symbol, unknown>)[VERIFIED_ACTOR] as Actor | null | undefined;
    // An anonymous write is refused by its handler; there is no user to keep its key for.
    if (!actor) return next.handle();
    const nats = context.switchToRpc().getContext() as { getSubject?: () => string } | undefined;
    const scope: IdempotencyScope = { user_id: actor.user_id, subject: nats?.getSubject?.() ?? context.getHandler().name, key };
    const sent = message?.meta?.idempotency_fingerprint;
    const fingerprint = typeof sent === 'string' && sent.length > 0 && sent.length <= 128 ? sent : requestFingerprint(message?.data);
    return from(this.keys.claim(scope, fingerprint)).pipe(
      mergeMap((claim) => {
        switch (claim.kind) {
          case 'claimed':
            return this.run(scope, next);
          case 'done':
            return 'ok' in claim.answer ? of(claim.answer.ok) : throwError(() => AppError.fromPayload((claim.answer as { error: never }).error));
          case 'mismatch':
            return throwError(() => new AppError('validation_failed', 'This Idempotency-Key was already used for a different request'));
          case 'running':
            return throwError(() => conflict('A request with this Idempotency-Key is still being processed; try again shortly'));
        }
      }),
    );
  }

  /**
   * Runs the write and keeps its answer. A failure without a typed answer (5xx: the write's transaction rolled back),
   * or a refusal that says "try again" (409 busy, 429), frees the key for a retry; if keeping a success fails, the key stays claimed, so a retry is refused, never repeated.
   */
  private run(scope: IdempotencyScope, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        const settle =
          error instanceof AppError && isFinalRefusal(error) ? this.keys.finish(scope, { error: error.toPayload() }) : this.keys.release(scope);
        return from(settle.catch((failure: unknown) => this.logger.warn(`Idempotency-Key not settled: ${String(failure)}`))).pipe(
          mergeMap(() => throwError(() => error)),
        );
      }),
      mergeMap((reply) =>
        from(
          this.keys
            .finish(scope, { ok: reply ?? null })
            .catch((failure: unknown) => this.logger.warn(`Idempotency-Key answer not kept: ${String(failure)}`))
            .then(() => reply),
        ),
      ),
    );
  }
}

/** A refusal the same request would meet again (bad input, not allowed, not found): kept as the key's answer. */
function isFinalRefusal(error: AppError): boolean {
  return error.status < 500 && error.status !== 409 && error.status !== 429;
}
