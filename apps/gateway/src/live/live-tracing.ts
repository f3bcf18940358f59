import { context } from '@opentelemetry/api';
import type { MsgHdrs } from 'nats';
import { SpanKind, startSpan, traceparentOf } from '@market/server-kit';

/**
 * Sends an event's frames in a span continuing the event's trace (the relay's publish span), so a bid's trace ends at
 * the websocket frames it caused (ADR 0049). An event without a trace is sent as before.
 */
export function sendInSpan(headers: MsgHdrs | undefined, listingId: string, send: () => number): void {
  const traceparent = traceparentOf(headers);
  if (!traceparent) {
    send();
    return;
  }
  const { span, context: spanContext } = startSpan('live frames send', { kind: SpanKind.PRODUCER, parent: traceparent, attributes: { 'listing.id': listingId } });
  try {
    span.setAttribute('live.sockets', context.with(spanContext, send));
  } finally {
    span.end();
  }
}
