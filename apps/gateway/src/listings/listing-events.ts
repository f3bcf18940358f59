import type { NatsConnection, Subscription } from 'nats';
import { EVENT_NAMES, mayConsume } from '@market/contracts';
import { eventSubject } from '@market/server-kit';

/**
 * Calls `onEvent` on every listing event (core NATS, this gateway's copy): what the browse cache and the sitemaps drop
 * their pages on. One subscription per event, not `listing.>`: the gateway's NATS user may read only the events it
 * consumes (ADR 0035); an event EVENT_FLOWS does not give the gateway stops the start.
 */
export function subscribeListingEvents(nc: NatsConnection, eventsPrefix: string, onEvent: () => void, reader: string): Subscription[] {
  const listingEvents = EVENT_NAMES.filter((name) => name.startsWith('listing.'));
  const undeclared = listingEvents.filter((name) => !mayConsume('gateway', name));
  if (undeclared.length > 0) throw new Error(`The ${reader} reads ${undeclared.join(', ')}, which EVENT_FLOWS does not list the gateway as consuming`);
  return listingEvents.map((name) => nc.subscribe(eventSubject(eventsPrefix, name), { callback: () => onEvent() }));
}
