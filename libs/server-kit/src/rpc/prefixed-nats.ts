import { ClientNats, ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { MsPattern } from '@nestjs/microservices/interfaces';

type NatsClient = Parameters<ServerNats['bindEvents']>[0];
type Subscription = ReturnType<NatsClient['subscribe']>;

/**
 * Nest's NATS server with every subject under a prefix (NATS_SUBJECT_PREFIX), so two stacks sharing one NATS
 * (parallel test runs, staging beside dev) never answer each other's requests. Handlers keep their plain names.
 */
export class PrefixedNatsServer extends ServerNats {
  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly prefix: string,
    private readonly queue: string,
  ) {
    super(options);
  }

  override bindEvents(client: NatsClient): void {
    // ServerNats unsubscribes these on close.
    const subscriptions = (this as unknown as { subscriptions: Subscription[] }).subscriptions;
    for (const channel of this.messageHandlers.keys()) {
      const queue = this.messageHandlers.get(channel)?.extras?.queue ?? this.queue;
      subscriptions.push(client.subscribe(`${this.prefix}${channel}`, { queue, callback: this.getMessageHandler(channel).bind(this) }));
    }
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
