import type { LiveMessage } from '@market/contracts';

/** One relayed event: the listing it concerns, its frames, its id (null for an event without one) and its trace headers. */
export interface LiveEvent<H = unknown> {
  eventId: string | null;
  listingId: string;
  messages: LiveMessage[];
  headers?: H;
  /** When the event occurred (ms since the epoch, from its signed occurred_at), for the delivery delay. */
  occurredAt?: number;
}

/** What one batch sends to one listing's sockets: every frame of its events, and the events' trace headers. */
export interface LiveDelivery<H = unknown> {
  listingId: string;
  messages: LiveMessage[];
  headers: H[];
}

// The frames that carry a price as of a price version (ADR 0038): a browser must see those in version order.
function versionOf(message: LiveMessage): number | null {
  const version = (message.data as { price_version?: unknown }).price_version;
  return (message.type === 'new_bid' || message.type === 'bids_repriced') && typeof version === 'number' ? version : null;
}

/**
 * Groups the events that arrived together into one delivery per listing (ADR 0057), so each listing's sockets are
 * walked once per batch, not once per event. Nothing is dropped but an event id already seen (`seen` says so and
 * remembers it: a relay that republished after a crash); every other frame is sent, in arrival order, except that
 * a listing's versioned price frames take their slots in price-version order, so two events that crossed on the way
 * (two relays, a redelivery) still reach a browser oldest first.
 */
export function batchLiveEvents<H>(events: readonly LiveEvent<H>[], seen: (eventId: string) => boolean): LiveDelivery<H>[] {
  const byListing = new Map<string, LiveDelivery<H>>();
  for (const event of events) {
    if (event.eventId !== null && seen(event.eventId)) continue;
    let delivery = byListing.get(event.listingId);
    if (!delivery) byListing.set(event.listingId, (delivery = { listingId: event.listingId, messages: [], headers: [] }));
    delivery.messages.push(...event.messages);
    if (event.headers !== undefined) delivery.headers.push(event.headers);
  }
  for (const delivery of byListing.values()) delivery.messages = inVersionOrder(delivery.messages);
  return [...byListing.values()];
}

// The versioned frames, sorted (stable), refill the places versioned frames held; the others stay where they were.
function inVersionOrder(messages: LiveMessage[]): LiveMessage[] {
  const versioned = messages.filter((message) => versionOf(message) !== null);
  if (versioned.length < 2) return messages;
  const sorted = [...versioned].sort((a, b) => (versionOf(a) as number) - (versionOf(b) as number));
  let next = 0;
  return messages.map((message) => (versionOf(message) === null ? message : sorted[next++]));
}
