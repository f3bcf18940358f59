import { EVENT_FLOWS, EVENT_NAMES, type EventEnvelope, type EventName, type EventPayloads } from '@market/contracts';
import { LIVE_SOURCE_EVENTS, liveMessagesFor } from './live-messages';

const LISTING = '6f1c1a52-4c6e-4b8e-9d59-2f0f3d8a7b10';

function envelope<N extends EventName>(name: N, payload: EventPayloads[N]): EventEnvelope<N> {
  return { id: `evt-${name}`, name, occurred_at: '2026-05-01T12:00:00.000Z', request_id: 'req-1', payload };
}

const bidPlaced = (overrides: Partial<EventPayloads['bid.placed']> = {}) =>
  envelope('bid.placed', {
    bid_id: 'b1',
    listing_id: LISTING,
    bidder_id: 'secret-bidder-id',
    bidder_name: 'alice',
    amount: 1200,
    current_bid: 1200,
    bid_count: 3,
    reserve_met: false,
    expires_at: '2026-05-01T12:10:00.000Z',
    extended: false,
    created_at: '2026-05-01T12:00:00.000Z',
    seller_id: 'secret-seller-id',
    listing_title: 'A blog',
    previous_leader_id: 'secret-leader-id',
    ...overrides,
  });

const listingUpdated = envelope('listing.updated', {
  listing_id: LISTING,
  seller_id: 'seller-1',
  title: 'A blog',
  website_url: 'https://blog.example.com',
  status: 'active',
  featured: true,
  listing_type: 'auction',
  auction_type: 'auto',
  starting_price: 100,
  reserve_price: 987654,
  buy_now_price: 4000,
  expires_at: '2026-05-08T12:00:00.000Z',
  updated_at: '2026-05-01T12:00:00.000Z',
});

describe('liveMessagesFor', () => {
  it('turns bid.placed into new_bid with only the public bid fields', () => {
    expect(liveMessagesFor(bidPlaced())).toEqual({
      eventId: 'evt-bid.placed',
      listingId: LISTING,
      messages: [
        {
          type: 'new_bid',
          data: {
            listing_id: LISTING,
            bid: { id: 'b1', bidder_name: 'alice', amount: 1200, created_at: '2026-05-01T12:00:00.000Z' },
            current_bid: 1200,
            bid_count: 3,
            reserve_met: false,
            expires_at: '2026-05-01T12:10:00.000Z',
          },
        },
      ],
    });
  });

  it('adds auction_extended after new_bid when soft close moved the end (D9)', () => {
    const live = liveMessagesFor(bidPlaced({ extended: true, expires_at: '2026-05-01T12:20:00.000Z' }));
    expect(live?.messages.map((m) => m.type)).toEqual(['new_bid', 'auction_extended']);
    expect(live?.messages[1]).toEqual({ type: 'auction_extended', data: { listing_id: LISTING, expires_at: '2026-05-01T12:20:00.000Z' } });
  });

  it('carries the price version on new_bid when the event has one (ADR 0038)', () => {
    expect(liveMessagesFor(bidPlaced({ price_version: 7 }))?.messages[0].data).toMatchObject({ bid_count: 3, price_version: 7 });
  });

  it('turns auction.repriced into bids_repriced with only the public state (ADR 0038)', () => {
    const live = liveMessagesFor(
      envelope('auction.repriced', {
        listing_id: LISTING,
        current_bid: null,
        bid_count: 0,
        reserve_met: false,
        price_version: 9,
        reason: 'bidder_removed',
        at: '2026-05-01T12:05:00.000Z',
      }),
    );
    expect(live?.messages).toEqual([{ type: 'bids_repriced', data: { listing_id: LISTING, current_bid: null, bid_count: 0, reserve_met: false, price_version: 9 } }]);
  });

  it('turns bid.accepted into listing_sold', () => {
    const live = liveMessagesFor(
      envelope('bid.accepted', {
        bid_id: 'b1',
        listing_id: LISTING,
        listing_title: 'A blog',
        website_url: null,
        seller_id: 's',
        buyer_id: 'u',
        amount: 5000,
        kind: 'bid',
        sale: 'bid_accepted',
        accepted_at: '2026-05-02T09:00:00.000Z',
      }),
    );
    expect(live?.messages).toEqual([{ type: 'listing_sold', data: { listing_id: LISTING, amount: 5000, sold_at: '2026-05-02T09:00:00.000Z' } }]);
  });

  it.each(['sold', 'expired'] as const)('turns auction.closed (%s) into listing_updated with that status', (outcome) => {
    const live = liveMessagesFor(
      envelope('auction.closed', {
        listing_id: LISTING,
        listing_title: 'A blog',
        seller_id: 's',
        outcome,
        reason: outcome === 'sold' ? 'won' : 'no_bids',
        winning_bid_id: null,
        buyer_id: null,
        amount: null,
        closed_at: '2026-05-08T12:00:00.000Z',
        pending_bids: 0,
      }),
    );
    expect(live?.messages).toEqual([
      { type: 'listing_updated', data: { listing_id: LISTING, status: outcome, featured: null, expires_at: null, buy_now_price: null } },
    ]);
  });

  it('turns listing.updated into listing_updated field by field, without the reserve (D7)', () => {
    const live = liveMessagesFor(listingUpdated);
    expect(live?.messages).toEqual([
      {
        type: 'listing_updated',
        data: { listing_id: LISTING, status: 'active', featured: true, expires_at: '2026-05-08T12:00:00.000Z', buy_now_price: 4000 },
      },
    ]);
  });

  it('turns listing.deleted into listing_updated with status deleted', () => {
    const live = liveMessagesFor(envelope('listing.deleted', { listing_id: LISTING, seller_id: 's', deleted_by: 's' }));
    expect(live?.messages).toEqual([
      { type: 'listing_updated', data: { listing_id: LISTING, status: 'deleted', featured: null, expires_at: null, buy_now_price: null } },
    ]);
  });

  it('never puts a reserve (amount or key) or an internal id in any frame', () => {
    const sources = [
      bidPlaced({ extended: true }),
      { ...listingUpdated, payload: { ...listingUpdated.payload, reserve_met: true, has_reserve: true } },
      // Payload fields nobody asked for must not ride along either.
      bidPlaced({ reserve_price: 55555, seller_id: 'seller-secret' } as Partial<EventPayloads['bid.placed']>),
    ];
    for (const source of sources) {
      const frames = liveMessagesFor(source)!.messages.map((message) => JSON.stringify(message));
      for (const frame of frames) {
        expect(frame).not.toMatch(/reserve_price|has_reserve|987654|55555|secret/);
        // reserve_met is the one public reserve fact, and only new_bid and bids_repriced carry it.
        expect(frame.replace('"reserve_met"', '')).not.toContain('reserve');
      }
    }
  });

  it('drops events it does not relay and malformed ones', () => {
    expect(liveMessagesFor(envelope('user.deleted', { user_id: 'u', deleted_by: 'a' }))).toBeNull();
    expect(liveMessagesFor({ ...bidPlaced(), payload: { listing_id: LISTING } })).toBeNull();
    expect(liveMessagesFor(null)).toBeNull();
    expect(liveMessagesFor('bid.placed')).toBeNull();
  });

  it('files the frames under the lower-case listing id', () => {
    expect(liveMessagesFor(bidPlaced({ listing_id: LISTING.toUpperCase() }))?.listingId).toBe(LISTING);
  });
});

describe('the events the gateway reads', () => {
  it("are declared as the gateway's in contracts: the live feed sources and every listing event (browse cache)", () => {
    const read = new Set<EventName>([...LIVE_SOURCE_EVENTS, ...EVENT_NAMES.filter((name) => name.startsWith('listing.'))]);
    const declared = EVENT_NAMES.filter((name) => EVENT_FLOWS[name].consumedBy.includes('gateway'));
    expect([...read].sort()).toEqual([...declared].sort());
  });
});
