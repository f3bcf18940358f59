import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { AckPolicy, DeliverPolicy, headers, nanos, type ConsumerMessages, type JsMsg, type NatsConnection } from 'nats';
import { deadLetterSubject, durableName, isEventParty, mayConsume, parseEvent, SECRET_PAYLOAD_KEYS, type EventEnvelope, type EventName } from '@market/contracts';
import { runWithRequestId } from '../logging/request-context';
import { eventSubject, type EventStreamOptions } from './jetstream';
import { DEFAULT_CONSUMER_LIMITS, type ConsumerLimits } from '../config/growth-env';
import { consumeInSpan } from '../tracing/event-tracing';
import type { BusKeys } from '../bus/bus-keys';
import type { BusIdentity } from '../bus/bus-identity';
import { busCryptoReady } from '../bus/bus-box-keys';
import { eventProblem, SENDER_HEADER } from '../bus/bus-signatures';
import { openEventFields } from './sealed-fields';
import { refusedOnBus } from '../bus/bus.metrics';

/** Handles one event inside the transaction that records it as processed. */
export type EventHandler<N extends EventName> = (event: EventEnvelope<N>, manager: EntityManager) => Promise<void>;

/**
 * Handles events of one name in stream order, none seen before by this consumer, inside the one transaction that
 * records them all as processed (ADR 0057). It must give the outcome of applying them one by one in that order.
 */
export type EventBatchHandler<N extends EventName> = (events: EventEnvelope<N>[], manager: EntityManager) => Promise<void>;

/** The most events one batch takes (also the pull size). */
export const MAX_EVENT_BATCH = 64;

const ACK_WAIT_MS = 30_000;
const QUICK_RETRIES = 3;
// JetStream's own limit lets a few deliveries past ours, for when dead-lettering itself failed or the process died
// while handling the last one (ADR 0046).
const DEAD_LETTER_ATTEMPTS = 3;

/**
 * How long a failed event waits before it comes back, by delivery count (1 for the first): the first delay (a
 * second by default) for the first few (a service starting, a brief blip), then doubling to the longest (a minute),
 * so an event that keeps failing costs one try a minute instead of one a second, until EVENTS_MAX_DELIVER.
 */
export function eventRetryDelayMs(deliveryCount: number, limits: Pick<ConsumerLimits, 'retryDelayMs' | 'maxRetryDelayMs'> = DEFAULT_CONSUMER_LIMITS): number {
  if (deliveryCount <= QUICK_RETRIES) return limits.retryDelayMs;
  return Math.min(limits.maxRetryDelayMs, limits.retryDelayMs * 2 ** (deliveryCount - QUICK_RETRIES));
}

/** Runs durable JetStream consumers whose handlers apply each event at most once (processed_events). */
export class EventConsumers {
  private readonly logger = new Logger('EventConsumers');
  private readonly subscriptions: ConsumerMessages[] = [];
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly nc: NatsConnection,
    private readonly stream: EventStreamOptions,
    private readonly consumerName: string,
    private readonly bus: BusIdentity,
    private readonly limits: ConsumerLimits = DEFAULT_CONSUMER_LIMITS,
  ) {}

  /**
   * Subscribes a handler to one event name with a durable consumer named after this service and the event.
   * With `purge`, a handled message is deleted from the stream (events that carry one-time tokens).
   */
  async subscribe<N extends EventName>(name: N, handler: EventHandler<N>, options: { purge?: boolean } = {}): Promise<void> {
    const messages = await this.open(name);
    this.loops.push(this.drain(name, messages, handler as EventHandler<EventName>, options.purge === true));
  }

  /**
   * Like `subscribe`, but the events already delivered when the handler is free are handled as one batch, in one
   * transaction, and acknowledged together (ADR 0057): a busy stream costs a transaction per batch instead of per
   * event, while a quiet one still handles each event as it comes (a batch of one never waits for company). A batch
   * that fails is retried event by event, so one poison event holds back none of the others and keeps its own
   * delivery count and dead-letter path.
   */
  async subscribeBatch<N extends EventName>(name: N, handler: EventBatchHandler<N>, options: { maxBatch?: number } = {}): Promise<void> {
    const messages = await this.open(name);
    const maxBatch = Math.max(1, Math.min(options.maxBatch ?? MAX_EVENT_BATCH, MAX_EVENT_BATCH));
    this.loops.push(this.drainBatches(name, messages, handler as EventBatchHandler<EventName>, maxBatch));
  }

  private async open(name: EventName): Promise<ConsumerMessages> {
    if (isEventParty(this.consumerName) && !mayConsume(this.consumerName, name)) throw new Error(`${this.consumerName} subscribes to ${name}, which EVENT_FLOWS in contracts does not list it as consuming`);
    const durable = durableName(this.consumerName, name);
    await busCryptoReady();
    const jsm = await this.nc.jetstreamManager();
    await jsm.consumers.add(this.stream.stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: eventSubject(this.stream.prefix, name),
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: this.limits.maxDeliver + DEAD_LETTER_ATTEMPTS,
    });
    const consumer = await this.nc.jetstream().consumers.get(this.stream.stream, durable);
    const messages = await consumer.consume({ max_messages: MAX_EVENT_BATCH });
    this.subscriptions.push(messages);
    return messages;
  }

  /** Applies one event unless this consumer already did; true when it was applied now. */
  async apply(event: EventEnvelope, handler: EventHandler<EventName>): Promise<boolean> {
    return runWithRequestId(event.request_id, () =>
      this.dataSource.transaction(async (manager) => {
        const inserted: unknown[] = await manager.query(
          `INSERT INTO processed_events (event_id, consumer) VALUES ($1, $2)
           ON CONFLICT DO NOTHING RETURNING event_id`,
          [event.id, this.consumerName],
        );
        if (inserted.length === 0) return false;
        await handler(event, manager);
        return true;
      }),
    );
  }

  /**
   * Applies the events this consumer has not applied yet, in one transaction with their processed_events rows (a
   * redelivery, or an id twice in the batch, is skipped as `apply` skips it); how many were applied now.
   */
  async applyBatch(events: EventEnvelope[], handler: EventBatchHandler<EventName>): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const inserted: { event_id: string }[] = await manager.query(
        `INSERT INTO processed_events (event_id, consumer) SELECT DISTINCT unnest($1::uuid[]), $2
         ON CONFLICT DO NOTHING RETURNING event_id`,
        [events.map((event) => event.id), this.consumerName],
      );
      const fresh = new Set(inserted.map((row) => row.event_id));
      // Stream order kept; the first copy of an id repeated within the batch is the one applied.
      const todo = events.filter((event) => fresh.delete(event.id));
      if (todo.length > 0) await handler(todo, manager);
      return todo.length;
    });
  }

  /** Stops consuming; messages in flight are redelivered to another replica. */
  async stop(): Promise<void> {
    for (const messages of this.subscriptions) messages.stop();
    await Promise.allSettled(this.loops);
  }

  private async drain(name: EventName, messages: ConsumerMessages, handler: EventHandler<EventName>, purge: boolean): Promise<void> {
    for await (const message of messages) {
      const done = await this.handle(name, message, handler, purge);
      if (done && purge) await this.purge(message.seq);
    }
  }

  /**
   * Takes messages off the consumer as they come into a queue of its own and hands whatever is queued, up to
   * `maxBatch`, to one batch whenever the previous batch is done. The queue is bounded (reading stops while it holds
   * two batches), so a slow handler slows the pulls instead of holding messages past their ack wait. Messages are not
   * grouped by peeking at nats.js's iterator: its buffer also holds its own pull requests, so a batch could wait on
   * a message that never comes.
   */
  private async drainBatches(name: EventName, messages: ConsumerMessages, handler: EventBatchHandler<EventName>, maxBatch: number): Promise<void> {
    const queue: JsMsg[] = [];
    const wake: { worker: (() => void) | null; reader: (() => void) | null } = { worker: null, reader: null };
    let ended = false;
    const worker = (async () => {
      for (;;) {
        if (queue.length === 0) {
          if (ended) return;
          await new Promise<void>((resolve) => (wake.worker = resolve));
          continue;
        }
        await this.handleBatch(name, queue.splice(0, maxBatch), handler);
        wake.reader?.();
      }
    })();
    try {
      for await (const message of messages) {
        queue.push(message);
        wake.worker?.();
        while (queue.length >= 2 * maxBatch) await new Promise<void>((resolve) => (wake.reader = resolve));
      }
    } finally {
      ended = true;
      wake.worker?.();
      await worker;
    }
  }

  /** Handles one batch: malformed messages are dead-lettered alone, the rest applied together or, failing that, one by one. */
  private async handleBatch(name: EventName, batch: JsMsg[], handler: EventBatchHandler<EventName>): Promise<void> {
    const one: EventHandler<EventName> = (event, manager) => handler([event], manager);
    const events: EventEnvelope[] = [];
    const taken: JsMsg[] = [];
    for (const message of batch) {
      const decoded = decode(message.data);
      const forged = signatureProblem(this.bus.keys, decoded, message.headers);
      const readable = this.readable(decoded, message, forged === null);
      const parsed = 'problem' in readable ? readable : parseEvent(readable.value);
      if ('problem' in parsed || parsed.event.name !== name || forged) await this.handle(name, message, one, false);
      else {
        events.push(parsed.event);
        taken.push(message);
      }
    }
    if (taken.length === 0) return;
    if (taken.length === 1) {
      await this.handle(name, taken[0], one, false);
      return;
    }
    try {
      const applied = await consumeInSpan(name, this.consumerName, taken[0].headers, () => this.applyBatch(events, handler));
      if (applied < events.length) this.logger.debug(`${events.length - applied} of ${events.length} ${name} events already processed`);
      for (const message of taken) message.ack();
    } catch (error) {
      this.logger.warn(`A batch of ${taken.length} ${name} events failed (${(error as Error).message}); handling them one by one`);
      for (const message of taken) await this.handle(name, message, one, false);
    }
  }

  // An event with the fields sealed for this consumer opened, and those sealed for another consumer dropped (ADR 0066).
  // Nothing is opened unless its signature holds: what an outsider sends never reaches the seal's code.
  private readable(decoded: unknown, message: JsMsg, signed: boolean): { value: unknown } | { problem: string } {
    return openEventFields(this.bus, message.headers?.get(SENDER_HEADER) ?? '', decoded, signed);
  }

  private async purge(sequence: number): Promise<void> {
    try {
      const jsm = await this.nc.jetstreamManager();
      await jsm.streams.deleteMessage(this.stream.stream, sequence, false);
    } catch (error) {
      this.logger.warn(`Could not delete message #${sequence} from ${this.stream.stream}: ${(error as Error).message}`);
    }
  }

  /**
   * Applies one message; true when it is done with (acknowledged). A message that is not a well-formed event of its
   * name is logged with its id and moved to the dead-letter subject (ADR 0028): retrying it could never succeed. So is
   * a well-formed event of another name published on this one's subject: this handler could never apply it, an event
   * not signed by its declared writer (ADR 0065), and an event whose handler failed EVENTS_MAX_DELIVER times (ADR 0046).
   */
  private async handle(name: EventName, message: JsMsg, handler: EventHandler<EventName>, secret: boolean): Promise<boolean> {
    const decoded = decode(message.data);
    // Believed only when signed by a writer EVENT_FLOWS declares (D25): anything else is applied by no one (ADR 0065).
    // It is checked on the payload as sent, and first: a forged event's seal is never opened.
    const forged = signatureProblem(this.bus.keys, decoded, message.headers);
    // The dead-letter copy is made from the message as sent (`decoded`), never from its opened fields.
    const readable = this.readable(decoded, message, forged === null);
    if ('problem' in readable) {
      refusedOnBus('event', message.subject, readable.problem);
      return this.deadLetter(message, decoded, `not believed: ${readable.problem}`, secret);
    }
    const parsed = parseEvent(readable.value);
    if ('problem' in parsed) return this.deadLetter(message, decoded, parsed.problem, secret);
    const event = parsed.event;
    if (event.name !== name) return this.deadLetter(message, decoded, `a ${event.name} event on the ${name} subject`, secret);
    if (forged) {
      refusedOnBus('event', message.subject, forged);
      return this.deadLetter(message, decoded, `not believed: ${forged}`, secret);
    }
    try {
      const applied = await consumeInSpan(name, this.consumerName, message.headers, () => this.apply(event, handler));
      if (!applied) this.logger.debug(`Event ${event.id} (${event.name}) already processed`);
      message.ack();
      return true;
    } catch (error) {
      const deliveries = message.info.deliveryCount;
      this.logger.error(`Handling ${event.name} ${event.id} failed (delivery ${deliveries}): ${(error as Error).message}`);
      // A poison event stops being retried after EVENTS_MAX_DELIVER deliveries (ADR 0046).
      if (deliveries >= this.limits.maxDeliver) return this.deadLetter(message, decoded, `failed ${deliveries} deliveries: ${(error as Error).message}`, secret);
      message.nak(eventRetryDelayMs(deliveries, this.limits));
      return false;
    }
  }

  /**
   * Publishes a dead message to the dead-letter subject with why and where it came from, then acknowledges it.
   * One-time tokens never reach the copy (ADR 0008): secret payload keys are removed, and a message of a token-carrying
   * subscription that cannot be read is kept as headers only.
   */
  private async deadLetter(message: JsMsg, decoded: unknown, problem: string, secret: boolean): Promise<boolean> {
    const eventId = typeof (decoded as { id?: unknown })?.id === 'string' ? (decoded as { id: string }).id : 'unknown';
    this.logger.error(`Dead-lettering event ${eventId} from ${message.subject} #${message.seq}: ${problem}`);
    const meta = headers();
    meta.set('Market-Consumer', this.consumerName);
    meta.set('Market-Event-Id', eventId);
    meta.set('Market-Original-Subject', message.subject);
    meta.set('Market-Original-Sequence', String(message.seq));
    meta.set('Market-Problem', problem.replace(/[\r\n]+/g, ' ').slice(0, 1000));
    const body = withoutSecrets(decoded, message.data, secret);
    if (body.length === 0) meta.set('Market-Body', 'withheld: it may hold a one-time token');
    try {
      await this.nc.jetstream().publish(deadLetterSubject(this.stream.prefix, this.consumerName), body, {
        headers: meta,
        // A redelivery of the same message is dropped by JetStream's duplicate window.
        msgID: `dead-${this.consumerName}-${message.seq}`,
      });
    } catch (error) {
      this.logger.error(`Could not dead-letter ${message.subject} #${message.seq}: ${(error as Error).message}`);
      message.nak(eventRetryDelayMs(message.info.deliveryCount, this.limits));
      return false;
    }
    message.ack();
    return true;
  }
}

/**
 * Why an event is not believed, checked on the message as it was sent (D25): the schema's parse drops fields it does
 * not know, and a newer writer's event carries fields an older consumer's schema lacks.
 */
function signatureProblem(keys: BusKeys, decoded: unknown, headers: JsMsg['headers']): string | null {
  if (typeof decoded !== 'object' || decoded === null) return 'not an event';
  const sent = decoded as { id?: unknown; name?: unknown; occurred_at?: unknown; payload?: unknown };
  return eventProblem(keys, { id: sent.id as string, name: sent.name as string, occurred_at: sent.occurred_at as string, payload: sent.payload }, headers);
}

/** A message's JSON, or undefined when it is not JSON. */
function decode(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(data));
  } catch {
    return undefined;
  }
}

/** The copy of a dead message that may be kept: without secret payload keys, or nothing when it cannot be read safely. */
function withoutSecrets(decoded: unknown, raw: Uint8Array, secret: boolean): Uint8Array {
  const payload = (decoded as { payload?: unknown } | undefined)?.payload;
  if (typeof decoded !== 'object' || decoded === null || typeof payload !== 'object' || payload === null) return secret ? new Uint8Array() : raw;
  const kept = Object.fromEntries(Object.entries(payload).filter(([key]) => !(SECRET_PAYLOAD_KEYS as readonly string[]).includes(key)));
  return new TextEncoder().encode(JSON.stringify({ ...decoded, payload: kept }));
}
