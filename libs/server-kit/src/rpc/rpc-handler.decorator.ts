import { MessagePattern } from '@nestjs/microservices';
import { z } from 'zod';
import type { Actor, RpcDefinition, RpcParsed, RpcReply } from '@market/contracts';
import { AppError } from '../errors/app-error';
import { parseInput } from './rpc-input';
import { VERIFIED_ACTOR } from '../identity/identity.interceptor';

/** Who sent a request and which request it is, as the envelope says. */
export interface RpcCall {
  actor: Actor | null;
  request_id: string;
}

const EnvelopeSchema = z.object({
  meta: z.object({ request_id: z.string().min(1).max(200), token: z.string().max(8192).nullable() }),
  data: z.unknown(),
});

type Handler<D extends RpcDefinition> = (input: RpcParsed<D>, call: RpcCall) => RpcReply<D> | Promise<RpcReply<D>>;

/**
 * Reads an envelope as sent over NATS; a message without the envelope's shape is refused as malformed. The caller is
 * the one IdentityInterceptor verified from the message's token (ADR 0030); without it the request is anonymous.
 */
export function readEnvelope(message: unknown): { data: unknown; call: RpcCall } {
  const envelope = EnvelopeSchema.safeParse(message);
  if (!envelope.success) throw new AppError('bad_request', 'Malformed request');
  const actor = ((message as Record<symbol, unknown>)[VERIFIED_ACTOR] as Actor | null | undefined) ?? null;
  return { data: envelope.data.data, call: { actor, request_id: envelope.data.meta.request_id } };
}

/**
 * Answers a declared subject (ADR 0028): the envelope is read, its data parsed with the subject's request schema, and
 * the method gets the parsed input and the call; its return type must be the subject's reply.
 */
export function RpcHandler<D extends RpcDefinition>(definition: D) {
  return <H extends Handler<D>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    const handler = descriptor.value as unknown as Handler<D>;
    descriptor.value = function answer(this: unknown, message: unknown) {
      const { data, call } = readEnvelope(message);
      return handler.call(this, parseInput(definition.request, data) as RpcParsed<D>, call);
    } as unknown as H;
    MessagePattern(definition.subject)(target, key, descriptor);
  };
}
