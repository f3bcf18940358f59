import { context } from '@opentelemetry/api';
import type { MsgHdrs } from 'nats';
import { SpanKind, startSpan, traceparentOf } from '@market/server-kit';

/**
 * Sends a batch's frames for one listing in a span continuing the trace of its first traced event (the relay's publish
 * span), so a bid's trace ends at the websocket frames it caused (ADR 0049, batches ADR 0057). Events without a trace
 * are sent as before.
 */
export function sendInSpan(headers: readonly (MsgHdrs | undefined)[], listingId: string, send: () => number): void {
  const traceparent = headers.map((each) => traceparentOf(each)).find((found) => found);
  if (!traceparent) {
    send();
    return;
  }
  const { span, context: spanContext } = startSpan('live frames send', { kind: SpanKind.PRODUCER, parent: traceparent, attributes: { 'listing.id': listingId, 'live.traced_events': headers.length } });
  try {
    span.setAttribute('live.sockets', context.with(spanContext, send));
  } finally {
    span.end();
  }
}
