import { ClientNats, ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { MsPattern } from '@nestjs/microservices/interfaces';
import type { DrainableServer } from '../health/serving-state';
import { InFlight } from './in-flight';
import type { NatsConnection } from 'nats';
import { coalesceWrites } from '../nats/write-coalescing';

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

  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly prefix: string,
    private readonly queue: string,
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

  // Every request taken is counted until its last reply packet (isDisposed) is sent, so draining waits for it.
  override async handleMessage(channel: string, message: NatsMessage): Promise<unknown> {
    this.inFlight.begin();
    this.unanswered.add(message);
    try {
      return await super.handleMessage(channel, message);
    } catch (error) {
      this.answered(message);
      throw error;
    }
  }

  override getPublisher(message: NatsMessage, id: string, context: Parameters<ServerNats['getPublisher']>[2]): Publisher {
    const publish = super.getPublisher(message, id, context);
    return (response: { isDisposed?: boolean }) => {
      try {
        return publish(response);
      } finally {
        if (response.isDisposed) this.answered(message);
      }
    };
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
