import { Logger } from '@nestjs/common';
import { connect, ErrorCode, JSONCodec, type Msg, type NatsConnection, type NatsError } from 'nats';
import { randomUUID } from 'node:crypto';
import { isRpcErrorPayload, ownerOf, type Actor, type RpcDefinition, type RpcEnvelope, type RpcReply, type RpcRequest } from '@market/contracts';
import type { BusIdentity } from '../bus/bus-identity';
import { openReply, sealRequest } from '../bus/bus-requests';
import { refusedOnBus } from '../bus/bus.metrics';
import { busCryptoReady } from '../bus/bus-box-keys';
import { natsTarget } from '../nats/nats-target';
import { coalesceWrites } from '../nats/write-coalescing';
import { AppError, unavailable } from '../errors/app-error';
import { currentRequestId } from '../logging/request-context';
import { observeRpcCall } from '../metrics/rpc.metrics';
import { callMeta } from './rpc-call-meta';
import { failRpcSpan, startRpcSpan } from '../tracing/rpc-tracing';
import { readNestReply } from './nest-packets';
import { ReplyInbox } from './reply-inbox';

export interface RpcClientOptions {
  natsUrl: string;
  name: string;
  timeoutMs: number;
  subjectPrefix?: string;
  /** Check every answer against its subject's reply schema (tests; CHECK_CONTRACTS). */
  checkReplies?: boolean;
  /** Who signs the requests, and the keys replies are checked with (D25). */
  bus: BusIdentity;
}

/** Per-call options: the browser's Idempotency-Key for a write (ADR 0047). */
export interface RpcCallOptions {
  idempotency?: { key: string; fingerprint?: string } | null;
}

const codec = JSONCodec<unknown>();

/**
 * Sends NATS requests to services with the caller's token and request id; no answer in time is a 503. It speaks the
 * packets of Nest's NATS transport, which the services answer with, on nats.js directly: one reply subscription for
 * every request instead of one per request, and no rxjs pipeline per call (ADR 0057).
 */
export class RpcClient {
  private readonly logger = new Logger('RpcClient');
  private readonly timeoutMs: number;
  private readonly checkReplies: boolean;
  private readonly prefix: string;
  private nc: NatsConnection | null = null;
  private inbox: ReplyInbox | null = null;
  private connecting: Promise<NatsConnection> | null = null;
  // While NATS is away a request fails at once (503) instead of waiting in the reconnect buffer for its timeout.
  private disconnected = false;

  constructor(private readonly options: RpcClientOptions) {
    this.timeoutMs = options.timeoutMs;
    this.checkReplies = options.checkReplies === true;
    this.prefix = options.subjectPrefix ?? '';
  }

  /** Connects once (later calls share the connection); a first connection that fails may be tried again. */
  async connect(): Promise<NatsConnection> {
    this.connecting ??= busCryptoReady().then(() => connect({ ...natsTarget(this.options.natsUrl), name: this.options.name, maxReconnectAttempts: -1, reconnectTimeWait: 500 }).then(
      (connected) => {
        const nc = coalesceWrites(connected);
        this.disconnected = false;
        this.inbox = new ReplyInbox(nc, natsTarget(this.options.natsUrl).inboxPrefix);
        void this.watch(nc);
        return nc;
      },
    ));
    try {
      this.nc = await this.connecting;
    } catch (error) {
      this.connecting = null;
      throw error;
    }
    return this.nc;
  }

  /** The NATS connection under this client (connected first), for subscriptions that must share it. */
  connection(): NatsConnection {
    if (!this.nc) throw new Error('Not connected: call connect() first');
    return this.nc;
  }

  async close(): Promise<void> {
    const nc = this.nc;
    this.inbox?.close();
    this.nc = null;
    this.inbox = null;
    this.connecting = null;
    await nc?.close();
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
      reply = await this.request(definition.subject, envelope, meta.deadline);
    } catch (error) {
      failRpcSpan(span, error);
      if (isRpcErrorPayload(error) && error.bus) {
        // The bus did not believe this process (a key not listed, a clock far off): its caller is not to blame.
        this.logger.error(`${definition.subject} refused this process's request: ${String(error.detail).slice(0, 300)}`);
        throw unavailable();
      }
      if (isRpcErrorPayload(error)) throw AppError.fromPayload(error);
      if ((error as NatsError | null)?.code === ErrorCode.Timeout) {
        this.logger.warn(`${definition.subject} did not answer within ${this.timeoutMs} ms`);
      } else {
        this.logger.warn(`${definition.subject} failed: ${(error as Error)?.message ?? String(error)}`);
      }
      throw unavailable();
    } finally {
      span.end();
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

  // Nest's servers answer a message only when it has an id (one without is an event to them). The request is sealed for
  // the subject's owner, bound to its subject, inbox and deadline; only a reply the owner sealed for this process's key
  // naming this request is taken (D25, ADR 0065, ADR 0066).
  private async request(subject: string, envelope: RpcEnvelope, deadline: number | undefined): Promise<unknown> {
    const inbox = this.inbox ?? (await this.connect(), this.inbox);
    if (!inbox || this.disconnected) throw new Error('Connection lost. Trying to reconnect...');
    const packet = codec.encode({ pattern: subject, data: envelope, id: randomUUID() });
    const published = `${this.prefix}${subject}`;
    const bus = this.options.bus;
    const signer = bus.signerFor(subject);
    const owner = ownerOf(subject);
    // Contracts give every declared subject an owner; a request to no one would go in clear, so it never goes.
    if (!owner) throw new Error(`${subject} has no owner in contracts: nothing to seal for`);
    const expires = deadline ?? Date.now() + this.timeoutMs;
    let nonce = '';
    const seal = (reply: string) => {
      const sealed = sealRequest(signer, bus.keys, owner, published, reply, expires, packet);
      nonce = sealed.nonce;
      return sealed.bytes;
    };
    const answer: { bytes: Uint8Array | null } = { bytes: null };
    const accept = (reply: Msg) => {
      const opened = openReply(signer, bus.keys, owner, reply.subject, nonce, reply.data);
      if (!opened) {
        refusedOnBus('reply', subject, `not sealed for ${signer.party} by ${owner} for this request`);
        return false;
      }
      answer.bytes = opened;
      return true;
    };
    await inbox.request(published, seal, this.timeoutMs, { accept });
    if (!answer.bytes || answer.bytes.length === 0) throw new Error(`Empty response from ${subject}`);
    return readNestReply(codec.decode(answer.bytes));
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        this.disconnected = true;
        this.logger.warn(`${this.options.name}: NATS connection lost; requests answer 503 until it is back`);
      } else if (status.type === 'reconnect') {
        this.disconnected = false;
        this.logger.log(`${this.options.name}: NATS connection back`);
      }
    }
  }
}
