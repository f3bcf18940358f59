import { Logger } from '@nestjs/common';
import type { ClientNats } from '@nestjs/microservices';
import { PrefixedNatsClient } from './prefixed-nats';
import { natsTarget } from '../nats/nats-target';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { randomUUID } from 'node:crypto';
import { isRpcErrorPayload, type Actor, type RpcDefinition, type RpcEnvelope, type RpcReply, type RpcRequest } from '@market/contracts';
import { AppError, unavailable } from '../errors/app-error';
import { currentRequestId } from '../logging/request-context';
import { observeRpcCall } from '../metrics/rpc.metrics';
import { callMeta } from './rpc-call-meta';
import { endsSpan, startRpcSpan } from '../tracing/rpc-tracing';

export interface RpcClientOptions {
  natsUrl: string;
  name: string;
  timeoutMs: number;
  subjectPrefix?: string;
  /** Check every answer against its subject's reply schema (tests; CHECK_CONTRACTS). */
  checkReplies?: boolean;
}

/** Per-call options: the browser's Idempotency-Key for a write (ADR 0047). */
export interface RpcCallOptions {
  idempotency?: { key: string; fingerprint?: string } | null;
}

/** Sends NATS requests to services with the actor and request id; no answer in time is a 503. */
export class RpcClient {
  private readonly logger = new Logger('RpcClient');
  private readonly client: ClientNats;
  private readonly timeoutMs: number;
  private readonly checkReplies: boolean;

  constructor(options: RpcClientOptions) {
    this.client = new PrefixedNatsClient(
      { ...natsTarget(options.natsUrl), name: options.name, maxReconnectAttempts: -1, reconnectTimeWait: 500 },
      options.subjectPrefix ?? '',
    );
    this.timeoutMs = options.timeoutMs;
    this.checkReplies = options.checkReplies === true;
  }

  connect(): Promise<unknown> {
    return this.client.connect();
  }

  close(): Promise<unknown> {
    return this.client.close() ?? Promise.resolve();
  }

  /** Requests a declared subject and returns its typed answer, or throws the service's typed error. */
  call<D extends RpcDefinition>(definition: D, data: RpcRequest<D>, actor: Actor | null, options: RpcCallOptions = {}): Promise<RpcReply<D>> {
    return observeRpcCall(definition.subject, () => this.sendRequest(definition, data, actor, options));
  }

  private async sendRequest<D extends RpcDefinition>(definition: D, data: RpcRequest<D>, actor: Actor | null, options: RpcCallOptions): Promise<RpcReply<D>> {
    // Only the caller's token travels: the service verifies it and derives the actor itself (ADR 0030).
    const meta = { request_id: currentRequestId() ?? randomUUID(), token: actor?.token ?? null, ...callMeta(this.timeoutMs, options) };
    const envelope: RpcEnvelope = { meta, data };
    const span = startRpcSpan(definition.subject, envelope.meta);
    let reply: unknown;
    try {
      reply = await firstValueFrom(this.client.send<unknown>(definition.subject, envelope).pipe(timeout(this.timeoutMs), endsSpan(span)));
    } catch (error) {
      if (isRpcErrorPayload(error)) throw AppError.fromPayload(error);
      if (error instanceof TimeoutError) {
        this.logger.warn(`${definition.subject} did not answer within ${this.timeoutMs} ms`);
      } else {
        this.logger.warn(`${definition.subject} failed: ${(error as Error)?.message ?? String(error)}`);
      }
      throw unavailable();
    }
    if (this.checkReplies) {
      const checked = definition.reply.safeParse(reply);
      if (!checked.success) {
        this.logger.error(`${definition.subject} answered outside its contract: ${JSON.stringify(checked.error.issues).slice(0, 2000)}`);
        throw new AppError('internal', 'Internal server error');
      }
    }
    return reply as RpcReply<D>;
  }
}
