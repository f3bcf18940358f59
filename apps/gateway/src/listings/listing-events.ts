import type { Msg, NatsConnection, Subscription } from 'nats';
import { EVENT_NAMES, mayConsume } from '@market/contracts';
import { eventSubject } from '@market/server-kit';

/**
 * Calls `onEvent` on every listing event (core NATS, this gateway's copy): what the browse cache and the sitemaps drop
 * their pages on. One subscription per event, not `listing.>`: the gateway's NATS user may read only the events it
 * consumes (ADR 0035); an event EVENT_FLOWS does not give the gateway stops the start.
 */
export function subscribeListingEvents(nc: NatsConnection, eventsPrefix: string, onEvent: (msg: Msg) => void, reader: string): Subscription[] {
  const listingEvents = EVENT_NAMES.filter((name) => name.startsWith('listing.'));
  const undeclared = listingEvents.filter((name) => !mayConsume('gateway', name));
  if (undeclared.length > 0) throw new Error(`The ${reader} reads ${undeclared.join(', ')}, which EVENT_FLOWS does not list the gateway as consuming`);
  return listingEvents.map((name) => nc.subscribe(eventSubject(eventsPrefix, name), { callback: (_error, msg) => onEvent(msg) }));
}

/**
 * The listing an event names (its payload's listing_id), read without checking it: whoever reads it only drops kept
 * pages, which any message on these subjects did before. Null when it names none (then everything is dropped).
 */
export function listingOfEvent(msg: Msg | undefined): string | null {
  try {
    const id = (JSON.parse(msg?.string() ?? '') as { payload?: { listing_id?: unknown } }).payload?.listing_id;
    return typeof id === 'string' && id.length > 0 ? id : null;
  } catch {
    return null;
  }
}
