import type { LiveMessage } from '@market/contracts';
import { batchLiveEvents, type LiveEvent } from './live-batch';

const newBid = (listing: string, version: number): LiveMessage => ({
  type: 'new_bid',
  data: {
    listing_id: listing,
    bid: { id: `bid-${version}`, bidder_name: 'ann', amount: 1000 + version, created_at: '2026-11-26T09:00:00.000Z' },
    current_bid: 1000 + version,
    bid_count: version,
    reserve_met: true,
    expires_at: null,
    price_version: version,
  },
});
const extended = (listing: string): LiveMessage => ({ type: 'auction_extended', data: { listing_id: listing, expires_at: '2026-11-26T10:00:00.000Z' } });
const event = (eventId: string | null, listing: string, messages: LiveMessage[], headers?: string): LiveEvent<string> => ({ eventId, listingId: listing, messages, headers });

/** A `seen` over a set, as the live feed keeps one. */
function seenSet(ids: string[] = []) {
  const known = new Set(ids);
  return (id: string) => {
    if (known.has(id)) return true;
    known.add(id);
    return false;
  };
}

describe('live feed batches (ADR 0057)', () => {
  it('is empty for no events', () => {
    expect(batchLiveEvents([], seenSet())).toEqual([]);
  });

  it('sends every frame of every event once, one delivery per listing, in arrival order', () => {
    const deliveries = batchLiveEvents(
      [event('e1', 'a', [newBid('a', 1), extended('a')], 'h1'), event('e2', 'b', [newBid('b', 1)]), event('e3', 'a', [newBid('a', 2)], 'h3')],
      seenSet(),
    );
    expect(deliveries).toEqual([
      { listingId: 'a', messages: [newBid('a', 1), extended('a'), newBid('a', 2)], headers: ['h1', 'h3'] },
      { listingId: 'b', messages: [newBid('b', 1)], headers: [] },
    ]);
  });

  it('drops an event id seen in this batch or an earlier one, and keeps events without an id', () => {
    const seen = seenSet(['old']);
    const deliveries = batchLiveEvents(
      [event('old', 'a', [newBid('a', 1)]), event('e2', 'a', [newBid('a', 2)]), event('e2', 'a', [newBid('a', 2)]), event(null, 'a', [extended('a')]), event(null, 'a', [extended('a')])],
      seen,
    );
    expect(deliveries).toEqual([{ listingId: 'a', messages: [newBid('a', 2), extended('a'), extended('a')], headers: [] }]);
  });

  it('puts crossed price frames of a listing in version order, leaving other frames in place', () => {
    const repriced: LiveMessage = { type: 'bids_repriced', data: { listing_id: 'a', current_bid: 1001, bid_count: 1, reserve_met: true, price_version: 4 } };
    const [delivery] = batchLiveEvents([event('e5', 'a', [newBid('a', 5), extended('a')]), event('e4', 'a', [repriced]), event('e3', 'a', [newBid('a', 3)])], seenSet());
    expect(delivery.messages).toEqual([newBid('a', 3), extended('a'), repriced, newBid('a', 5)]);
  });
});
