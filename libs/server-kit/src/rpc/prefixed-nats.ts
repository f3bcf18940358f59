import { ClientNats, ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { MsPattern } from '@nestjs/microservices/interfaces';
import type { DrainableServer } from '../health/serving-state';
import { InFlight } from './in-flight';
import type { NatsConnection } from 'nats';
import { mayCall, type EventParty } from '@market/contracts';
import { coalesceWrites } from '../nats/write-coalescing';
import type { BusIdentity } from '../bus/bus-identity';
import { MAX_REQUEST_LIFETIME_MS, sealReply, takeRequest, type TakenRequest } from '../bus/bus-requests';
import { refusedOnBus } from '../bus/bus.metrics';
import { ReplayGuard } from '../bus/replay-guard';
import { AppError } from '../errors/app-error';
import { busCryptoReady } from '../bus/bus-box-keys';
import { isSealed } from '../bus/bus-sealing';

type NatsClient = Parameters<ServerNats['bindEvents']>[0];
type Subscription = ReturnType<NatsClient['subscribe']>;
type NatsMessage = Parameters<ServerNats['handleMessage']>[1];
type Publisher = ReturnType<ServerNats['getPublisher']>;

/** A request as taken: its packet opened, who sent it with which key (its answer is sealed for that key) and its nonce. */
interface OpenedRequest {
  subject: string;
  reply?: string;
  headers: NatsMessage['headers'];
  data: Uint8Array;
  respond: NatsMessage['respond'];
  sender: EventParty;
  senderKey: Uint8Array;
  nonce: string;
}

const INBOX = '_INBOX.';

/** The id of Nest's request packet in `bytes` (a JSON object with a string id of at most 200 characters), or null. */
function packetId(bytes: Uint8Array): string | null {
  try {
    const packet: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const id = typeof packet === 'object' && packet !== null && !Array.isArray(packet) ? (packet as { id?: unknown }).id : undefined;
    return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : null;
  } catch {
    return null;
  }
}

/**
 * Nest's NATS server with every subject under a prefix (NATS_SUBJECT_PREFIX), so two stacks sharing one NATS
 * (parallel test runs, staging beside dev) never answer each other's requests. Handlers keep their plain names.
 */
export class PrefixedNatsServer extends ServerNats implements DrainableServer {
  private readonly inFlight = new InFlight();
  private readonly unanswered = new WeakSet<OpenedRequest>();
  // A sealed request is taken once (ADR 0065, 0068).
  private readonly replays = new ReplayGuard();

  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly prefix: string,
    private readonly queue: string,
    private readonly bus: BusIdentity,
  ) {
    super(options);
  }

  // Nothing is opened or sealed before libsodium has loaded (ADR 0066).
  override async listen(callback: Parameters<ServerNats['listen']>[0]): Promise<void> {
    await busCryptoReady();
    return super.listen(callback);
  }

  override bindEvents(client: NatsClient): void {
    // Replies of one turn of the event loop go out in one socket write (ADR 0062).
    coalesceWrites(client as unknown as NatsConnection);
    // ServerNats unsubscribes these on close.
    const subscriptions = (this as unknown as { subscriptions: Subscription[] }).subscriptions;
    for (const channel of this.messageHandlers.keys()) {
      const queue = this.messageHandlers.get(channel)?.extras?.queue ?? this.queue;
      subscriptions.push(client.subscribe(`${this.prefix}${channel}`, { queue, callback: this.getMessageHandler(channel).bind(this) }));
    }
  }

  // Channels are the declared subjects, plain strings: found directly. Nest's own lookup first tries JSON.parse on the
  // channel, which throws, stack trace and all, for every plain subject on every request (ADR 0057).
  override getHandlerByPattern(pattern: string): ReturnType<ServerNats['getHandlerByPattern']> {
    return this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
  }

  // Every request taken is counted until its last reply packet (isDisposed) is sent, so draining waits for it. A request
  // not sealed for this service by a process that contracts allow to call the subject is answered with the refusal and
  // goes no further (D25, ADR 0065, ADR 0066): 401 when it is not sealed, expired or sealed for another subject or
  // answer, 403 when its sender may not call it.
  override async handleMessage(channel: string, message: NatsMessage): Promise<unknown> {
    // Only an inbox is ever answered: a responder may publish to whatever reply subject a request names (NATS's
    // allow_responses), and an answer sent to the JetStream API would be a command (ADR 0066).
    if (!message.reply?.startsWith(INBOX)) {
      refusedOnBus('request', message.subject, 'no inbox to answer');
      return;
    }
    const checked = takeRequest(this.bus.signer, this.bus.keys, message.subject, message.reply, message.data);
    if ('problem' in checked) {
      refusedOnBus('request', message.subject, checked.problem);
      const refusal = new AppError('unauthorized', `The request was not believed: ${checked.problem}`);
      // A request in clear is told why, in clear (it says nothing but that), and an expired one its sender sealed, sealed:
      // once, and only soon after its expiry (a clock far off learns why; a copy captured long ago gets nothing). One
      // sealed that does not open has its packet id sealed too, so no answer could name it: its sender times out.
      if (checked.refused) {
        const now = Date.now();
        const recent = now - checked.refused.expiresAt < MAX_REQUEST_LIFETIME_MS;
        if (recent && this.replays.firstTime(checked.refused.nonce, now + MAX_REQUEST_LIFETIME_MS)) this.refuse(message, refusal, this.opened(message, checked.refused));
        return;
      }
      if (isSealed(message.data)) return;
      return this.refuse(message, refusal, null);
    }
    if (this.bus.signer.checks && !this.replays.firstTime(checked.nonce, checked.expiresAt)) {
      // A replay gets no answer at all: the request it copies has, or will have, its own.
      refusedOnBus('request', message.subject, 'taken once already');
      return;
    }
    const taken = this.opened(message, checked);
    // Nest takes a packet without an id for an event and never answers it; one that is not JSON it throws on.
    if (packetId(checked.packet) === null) {
      refusedOnBus('request', message.subject, `not a request packet from ${checked.sender}`);
      return;
    }
    if (!mayCall(checked.sender, channel)) {
      refusedOnBus('request', message.subject, `${checked.sender} may not call ${channel}`);
      return this.refuse(message, new AppError('forbidden', `${checked.sender} may not call ${channel}`), taken);
    }
    this.inFlight.begin();
    this.unanswered.add(taken);
    try {
      return await super.handleMessage(channel, taken as unknown as NatsMessage);
    } catch (error) {
      // nats.js drops what a subscription's callback returns: rethrown, this would end the process.
      this.answered(taken);
      this.logger.error(`${message.subject} from ${checked.sender} failed before its handler: ${(error as Error)?.message ?? String(error)}`);
      return undefined;
    }
  }

  // Nest's publisher, with every reply sealed for the key that sent the request, naming that request (D25, ADR 0066).
  override getPublisher(message: NatsMessage, id: string, context: Parameters<ServerNats['getPublisher']>[2]): Publisher {
    const taken = message as unknown as OpenedRequest;
    if (!taken.reply) return () => undefined;
    const reply = taken.reply;
    return (response: { isDisposed?: boolean }) => {
      try {
        Object.assign(response, { id });
        const outgoing = this.serializer.serialize(response as Parameters<Publisher>[0]) as { data: Uint8Array };
        this.onProcessingEndHook?.(this.transportId, context);
        return taken.respond(sealReply(this.bus.signer, this.bus.keys, taken.sender, taken.senderKey, reply, taken.nonce, outgoing.data));
      } finally {
        if (response.isDisposed) this.answered(taken);
      }
    };
  }

  private opened(message: NatsMessage, request: TakenRequest): OpenedRequest {
    const { sender, senderKey, nonce, packet } = request;
    return { subject: message.subject, reply: message.reply, headers: message.headers, data: packet, respond: message.respond.bind(message), sender, senderKey, nonce };
  }

  // `taken`: the request refused, opened, whose sender the answer is sealed for; null when none was opened (the answer
  // is in clear: it says nothing but that).
  private refuse(message: NatsMessage, refusal: AppError, taken: OpenedRequest | null): void {
    if (!message.reply) return;
    const id = packetId(taken?.data ?? message.data);
    // Without Nest's packet id no client of ours could match the answer; the caller times out instead.
    if (id === null) return;
    const clear = new TextEncoder().encode(JSON.stringify({ id, err: { ...refusal.toPayload(), bus: true }, isDisposed: true }));
    message.respond(taken ? sealReply(this.bus.signer, this.bus.keys, taken.sender, taken.senderKey, message.reply, taken.nonce, clear) : clear);
  }

  /** Resolves once the NATS server has every subscription: until then a request could find no responder (a 503). */
  async subscribed(): Promise<void> {
    await (this as unknown as { natsClient: NatsConnection | null }).natsClient?.flush();
  }

  /** Leaves the queue group: NATS sends new requests to the other replicas (ADR 0050). */
  async stopAccepting(): Promise<void> {
    const subscriptions = (this as unknown as { subscriptions: Subscription[] }).subscriptions;
    // drain, not unsubscribe: requests the server already sent this replica are still taken (and counted), not dropped.
    await Promise.allSettled(subscriptions.map((subscription) => subscription.drain()));
    subscriptions.length = 0;
  }

  /** Resolves true once every request taken has been answered, false after `timeoutMs`. */
  idle(timeoutMs: number): Promise<boolean> {
    return this.inFlight.idle(timeoutMs);
  }

  private answered(message: OpenedRequest): void {
    if (this.unanswered.delete(message)) this.inFlight.end();
  }
}

/** Nest's NATS client sending to the same prefixed subjects. */
export class PrefixedNatsClient extends ClientNats {
  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly prefix: string,
  ) {
    super(options);
  }

  protected override normalizePattern(pattern: MsPattern): string {
    return `${this.prefix}${super.normalizePattern(pattern)}`;
  }
}
