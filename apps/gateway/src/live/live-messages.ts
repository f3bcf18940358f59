import { parseEvent, type EventName, type EventPayloads, type LiveMessage } from '@market/contracts';

/** The bus events the live feed relays to browsers. */
export const LIVE_SOURCE_EVENTS = ['bid.placed', 'auction.repriced', 'bid.accepted', 'auction.closed', 'listing.updated', 'listing.deleted'] as const satisfies readonly EventName[];
type SourceEvent = (typeof LIVE_SOURCE_EVENTS)[number];

// Each builder reads only the fields it names: event payloads are internal and may carry what browsers must never see
// (listing.updated is internal, D7; its reserve is sealed for bidding-service and never reaches this process), so nothing is ever spread or copied wholesale.

/** `bid.placed` -> `new_bid`, plus `auction_extended` when soft close moved the end (D9, D21). */
export function bidPlacedMessages(
  p: Pick<
    EventPayloads['bid.placed'],
    'bid_id' | 'listing_id' | 'bidder_name' | 'amount' | 'current_bid' | 'bid_count' | 'reserve_met' | 'expires_at' | 'extended' | 'created_at' | 'price_version'
  >,
): LiveMessage[] {
  const messages: LiveMessage[] = [
    {
      type: 'new_bid',
      data: {
        listing_id: p.listing_id,
        bid: { id: p.bid_id, bidder_name: p.bidder_name, amount: p.amount, created_at: p.created_at },
        current_bid: p.current_bid,
        bid_count: p.bid_count,
        reserve_met: p.reserve_met,
        expires_at: p.expires_at,
        ...(p.price_version === undefined ? {} : { price_version: p.price_version }),
      },
    },
  ];
  if (p.extended && p.expires_at !== null) messages.push({ type: 'auction_extended', data: { listing_id: p.listing_id, expires_at: p.expires_at } });
  return messages;
}

/** `auction.repriced` -> `bids_repriced`: bids left the auction, the price and count may be lower (ADR 0038). */
export function auctionRepricedMessages(p: Pick<EventPayloads['auction.repriced'], 'listing_id' | 'current_bid' | 'bid_count' | 'reserve_met' | 'price_version'>): LiveMessage[] {
  return [
    {
      type: 'bids_repriced',
      data: { listing_id: p.listing_id, current_bid: p.current_bid, bid_count: p.bid_count, reserve_met: p.reserve_met, price_version: p.price_version },
    },
  ];
}

/** `bid.accepted` -> `listing_sold`. */
export function bidAcceptedMessages(p: Pick<EventPayloads['bid.accepted'], 'listing_id' | 'amount' | 'accepted_at'>): LiveMessage[] {
  return [{ type: 'listing_sold', data: { listing_id: p.listing_id, amount: p.amount, sold_at: p.accepted_at } }];
}

/** `auction.closed` -> `listing_updated` with the outcome as the status. */
export function auctionClosedMessages(p: Pick<EventPayloads['auction.closed'], 'listing_id' | 'outcome'>): LiveMessage[] {
  return [{ type: 'listing_updated', data: { listing_id: p.listing_id, status: p.outcome, featured: null, expires_at: null, buy_now_price: null } }];
}

/** `listing.updated` -> `listing_updated`: status, featured flag, end and buy-now price; never the reserve (D7). */
export function listingUpdatedMessages(p: Pick<EventPayloads['listing.updated'], 'listing_id' | 'status' | 'featured' | 'expires_at' | 'buy_now_price'>): LiveMessage[] {
  return [
    {
      type: 'listing_updated',
      data: { listing_id: p.listing_id, status: p.status, featured: p.featured, expires_at: p.expires_at, buy_now_price: p.buy_now_price },
    },
  ];
}

/** `listing.deleted` -> `listing_updated` with status `deleted`. */
export function listingDeletedMessages(p: Pick<EventPayloads['listing.deleted'], 'listing_id'>): LiveMessage[] {
  return [{ type: 'listing_updated', data: { listing_id: p.listing_id, status: 'deleted', featured: null, expires_at: null, buy_now_price: null } }];
}

// Each event is checked against its contract schema first (parseEvent): a malformed one is dropped, not relayed half-built.
const BUILDERS: { [N in SourceEvent]: (payload: EventPayloads[N]) => LiveMessage[] } = {
  'bid.placed': bidPlacedMessages,
  'auction.repriced': auctionRepricedMessages,
  'bid.accepted': bidAcceptedMessages,
  'auction.closed': auctionClosedMessages,
  'listing.updated': listingUpdatedMessages,
  'listing.deleted': listingDeletedMessages,
};

function isSource(name: EventName): name is SourceEvent {
  return (LIVE_SOURCE_EVENTS as readonly string[]).includes(name);
}

/** What one bus event means for live viewers: the listing it concerns and its frames, or null when it means nothing. */
export function liveMessagesFor(envelope: unknown): { eventId: string | null; listingId: string; messages: LiveMessage[] } | null {
  const parsed = parseEvent(envelope);
  if ('problem' in parsed || !isSource(parsed.event.name)) return null;
  const { id: eventId, name, payload } = parsed.event;
  const messages = (BUILDERS[name] as (payload: unknown) => LiveMessage[])(payload);
  return { eventId, listingId: messages[0].data.listing_id.toLowerCase(), messages };
}
