import type { ExecutionContext } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import type { NatsContext } from '@nestjs/microservices';

/** The subject a NATS handler answers, as declared (without the deployment's prefix), for span names. */
export function rpcSubject(context: ExecutionContext): string {
  const patterns: unknown = Reflect.getMetadata(PATTERN_METADATA, context.getHandler());
  const declared = Array.isArray(patterns) ? patterns[0] : patterns;
  if (typeof declared === 'string') return declared;
  return context.switchToRpc().getContext<NatsContext>()?.getSubject?.() ?? 'nats';
}
