import type { NatsConnection } from 'nats';

// What nats.js 2.29 keeps of a connection's pending output (ProtocolHandler): read here, never written but for the flush.
interface PendingOutput {
  flushPending(): void;
  outbound: { size(): number };
  pendingLimit: number;
}

/**
 * Makes `nc` send what one turn of the event loop wrote in one socket write instead of one per callback (ADR 0062).
 * nats.js flushes at the next microtask checkpoint, which Node reaches after every socket callback, so each request
 * handled, reply sent or message published was a write of its own: on this machine a write costs more than the
 * message. Output past nats.js's own limit still goes at once, and what is pending goes before a close. A nats.js
 * without this shape is left as it is.
 */
export function coalesceWrites(nc: NatsConnection): NatsConnection {
  const protocol = (nc as unknown as { protocol?: Partial<PendingOutput> }).protocol;
  if (!protocol || typeof protocol.flushPending !== 'function' || typeof protocol.outbound?.size !== 'function' || typeof protocol.pendingLimit !== 'number') return nc;
  const output = protocol as PendingOutput;
  const flushNow = output.flushPending.bind(output);
  let scheduled = false;
  output.flushPending = () => {
    if (output.outbound.size() >= output.pendingLimit) return flushNow();
    if (scheduled) return;
    scheduled = true;
    // setImmediate runs once this turn's callbacks are done, and the loop does not sleep while one is waiting.
    setImmediate(() => {
      scheduled = false;
      flushNow();
    });
  };
  // What this turn wrote goes out before a close, as it would have at its microtask.
  const close = nc.close.bind(nc);
  nc.close = () => {
    flushNow();
    return close();
  };
  return nc;
}
