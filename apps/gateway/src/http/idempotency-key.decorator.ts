import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { IDEMPOTENCY_KEY_RULE, badRequest, isIdempotencyKey } from '@market/server-kit';

/** A write's Idempotency-Key as the service is sent it (ADR 0047); `fingerprint` when the request is not its data. */
export interface IdempotencyRequest {
  key: string;
  fingerprint?: string;
}

/**
 * The request's Idempotency-Key header (ADR 0047), checked here so a malformed one is a clear 400 before any work;
 * null when the client sent none (the write then runs as before, without retry protection).
 */
export const IdempotencyKey = createParamDecorator(idempotencyKeyOf);

/** Reads and checks the header (named: the route-table test finds the routes that read it by this name). */
export function idempotencyKeyOf(_: unknown, context: ExecutionContext): IdempotencyRequest | null {
  const header = context.switchToHttp().getRequest<Request>().header('idempotency-key');
  if (header === undefined) return null;
  if (!isIdempotencyKey(header)) throw badRequest(IDEMPOTENCY_KEY_RULE);
  return { key: header };
}
