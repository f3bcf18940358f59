import type { MsgHdrs } from 'nats';
import { currentTraceparent, inSpan, SpanKind, traceHeaders, traceparentOf } from './trace-context';

/**
 * Publishes an outbox row in a producer span continuing the trace the row was written in; the message carries the
 * span's traceparent in its headers (ADR 0049). A row written outside any trace is published as before.
 */
export function publishInSpan<T>(row: { name: string; traceparent?: string | null }, publish: (headers: MsgHdrs | undefined) => Promise<T>): Promise<T> {
  if (!row.traceparent) return publish(undefined);
  return inSpan(`${row.name} publish`, { kind: SpanKind.PRODUCER, parent: row.traceparent, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': row.name } }, () =>
    publish(traceHeaders(currentTraceparent())),
  );
}

/** Runs a consumer's handling of an event in a consumer span, a child of the span that published it (ADR 0049). */
export function consumeInSpan<T>(name: string, consumer: string, headers: MsgHdrs | undefined, handle: () => Promise<T>): Promise<T> {
  const traceparent = traceparentOf(headers);
  if (!traceparent) return handle();
  return inSpan(`${name} process`, { kind: SpanKind.CONSUMER, parent: traceparent, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': name, 'messaging.consumer.group.name': consumer } }, handle);
}
