import { ClientNats, ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { MsPattern } from '@nestjs/microservices/interfaces';
import type { DrainableServer } from '../health/serving-state';
import { InFlight } from './in-flight';
import type { NatsConnection } from 'nats';
import { mayCall } from '@market/contracts';
import { coalesceWrites } from '../nats/write-coalescing';
import type { BusIdentity } from '../bus/bus-identity';
import { checkRequest, replyHeaders, requestSignature } from '../bus/bus-signatures';
import { refusedOnBus } from '../bus/bus.metrics';
import { ReplayGuard } from '../bus/replay-guard';
import { AppError } from '../errors/app-error';

type NatsClient = Parameters<ServerNats['bindEvents']>[0];
type Subscription = ReturnType<NatsClient['subscribe']>;
type NatsMessage = Parameters<ServerNats['handleMessage']>[1];
type Publisher = ReturnType<ServerNats['getPublisher']>;

/**
 * Nest's NATS server with every subject under a prefix (NATS_SUBJECT_PREFIX), so two stacks sharing one NATS
 * (parallel test runs, staging beside dev) never answer each other's requests. Handlers keep their plain names.
 */
export class PrefixedNatsServer extends ServerNats implements DrainableServer {
  private readonly inFlight = new InFlight();
  private readonly unanswered = new WeakSet<NatsMessage>();
  // A signed request is taken once (ADR 0065).
  private readonly replays = new ReplayGuard();

  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly prefix: string,
    private readonly queue: string,
    private readonly bus: BusIdentity,
  ) {
    super(options);
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
  // not signed by a process that contracts allow to call the subject is answered with the refusal and goes no further
  // (D25, ADR 0065): 401 when its signature is missing, expired or wrong, 403 when its signer may not call it.
  override async handleMessage(channel: string, message: NatsMessage): Promise<unknown> {
    const checked = checkRequest(this.bus.keys, message.subject, message.reply ?? '', message.headers, message.data);
    if ('problem' in checked) {
      refusedOnBus('request', message.subject, checked.problem);
      // Answered for no request of anyone's: its signature was not verified, so the answer must not name it (a copied
      // signature would make this refusal another caller's answer). A caller of ours never takes it; it times out.
      return this.refuse(message, new AppError('unauthorized', `The request was not believed: ${checked.problem}`), '');
    }
    if (!this.replays.firstTime(checked.signature, checked.expiresAt)) {
      // A replay gets no answer at all: the request it copies has, or will have, its own.
      refusedOnBus('request', message.subject, 'taken once already');
      return;
    }
    if (!mayCall(checked.sender, channel)) {
      refusedOnBus('request', message.subject, `${checked.sender} may not call ${channel}`);
      return this.refuse(message, new AppError('forbidden', `${checked.sender} may not call ${channel}`), checked.signature);
    }
    this.inFlight.begin();
    this.unanswered.add(message);
    try {
      return await super.handleMessage(channel, message);
    } catch (error) {
      this.answered(message);
      throw error;
    }
  }

  // Nest's publisher, with every reply signed by this process for the inbox it goes to (D25).
  override getPublisher(message: NatsMessage, id: string, context: Parameters<ServerNats['getPublisher']>[2]): Publisher {
    if (!message.reply) return () => undefined;
    const reply = message.reply;
    return (response: { isDisposed?: boolean }) => {
      try {
        Object.assign(response, { id });
        const outgoing = this.serializer.serialize(response as Parameters<Publisher>[0]) as { data: Uint8Array };
        this.onProcessingEndHook?.(this.transportId, context);
        return message.respond(outgoing.data, { headers: replyHeaders(this.bus.signer, reply, requestSignature(message.headers), outgoing.data) });
      } finally {
        if (response.isDisposed) this.answered(message);
      }
    };
  }

  // `request`: the verified signature of the request refused, which the answer names; '' when none was verified.
  private refuse(message: NatsMessage, refusal: AppError, request: string): void {
    if (!message.reply) return;
    let id: unknown;
    try {
      id = (JSON.parse(new TextDecoder().decode(message.data)) as { id?: unknown }).id;
    } catch {
      id = undefined;
    }
    // Without Nest's packet id no client of ours could match the answer; the caller times out instead.
    if (typeof id !== 'string' || id.length > 200) return;
    const data = new TextEncoder().encode(JSON.stringify({ id, err: { ...refusal.toPayload(), bus: true }, isDisposed: true }));
    message.respond(data, { headers: replyHeaders(this.bus.signer, message.reply, request, data) });
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

  private answered(message: NatsMessage): void {
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
