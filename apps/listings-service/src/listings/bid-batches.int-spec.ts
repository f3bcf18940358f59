import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { EventEnvelope, EventPayloads } from '@market/contracts';
import { eventually, shuffled } from '@market/server-kit/testing';
import { startListingsUnderTest, type ListingsUnderTest } from '../testing/listings-under-test';
import { ListingsRepository } from './listings.repository';

const VERSIONS = 15;
const HOUR = 3_600_000;

/** bid.placed taken in batches (ADR 0057): per listing the newest price wins, whatever the order, redelivered or not. */
describe('listings apply bid.placed in batches', () => {
  let under: ListingsUnderTest;
  let ds: DataSource;
  let listings: ListingsRepository;

  const publish = (event: EventEnvelope<'bid.placed'>) => under.publish(event);
  const bid = (listingId: string, seller: string, version: number): EventEnvelope<'bid.placed'> => {
    const payload: EventPayloads['bid.placed'] = {
      bid_id: randomUUID(),
      listing_id: listingId,
      bidder_id: randomUUID(),
      bidder_name: 'ann',
      amount: 1000 + 10 * version,
      current_bid: 1000 + 10 * version,
      bid_count: version,
      reserve_met: true,
      // Soft close moves the end later with each bid.
      expires_at: new Date(Date.UTC(2030, 0, 1) + version * HOUR).toISOString(),
      extended: true,
      created_at: new Date().toISOString(),
      seller_id: seller,
      listing_title: 'A site',
      previous_leader_id: null,
      price_version: version,
    };
    return { id: randomUUID(), name: 'bid.placed', occurred_at: new Date().toISOString(), request_id: null, payload };
  };
  const priced = async (id: string) => {
    const row = await listings.findById(id);
    return [row?.current_bid, row?.bid_count, row?.price_version, row?.expires_at ? new Date(row.expires_at).toISOString() : null];
  };
  const processed = async (ids: string[]) =>
    Number((await ds.query(`SELECT count(*) AS n FROM processed_events WHERE consumer = 'listings-service' AND event_id = ANY($1::uuid[])`, [ids]))[0].n);

  beforeAll(async () => {
    under = await startListingsUnderTest();
    ({ ds, listings } = under);
  });
  afterAll(async () => {
    await under?.stop();
  });

  it('ends at the newest price of each listing from a shuffled burst with redeliveries, every event recorded once', async () => {
    const seller = randomUUID();
    const live = () => under.live(seller, { starting_price: 1000 });
    const targets = [await live(), await live(), await live()];
    const events = targets.flatMap((listing) => Array.from({ length: VERSIONS }, (_, i) => bid(listing.id, seller, i + 1)));
    // Every event once in a shuffled order, then a third of them again (redeliveries: same ids).
    const burst = [...shuffled(events, 57), ...shuffled(events, 7).slice(0, VERSIONS)];
    await Promise.all(burst.map((event) => publish(event)));

    const newest = [1000 + 10 * VERSIONS, VERSIONS, VERSIONS, new Date(Date.UTC(2030, 0, 1) + VERSIONS * HOUR).toISOString()];
    for (const listing of targets) await eventually(async () => expect(await priced(listing.id)).toEqual(newest), 20_000);
    await eventually(async () => expect(await processed(events.map((event) => event.id))).toBe(events.length), 20_000);

    // An older price arriving late changes nothing; events of one name are applied in stream order, so once a marker
    // published after it is applied, it was handled.
    const late = bid(targets[0].id, seller, 3);
    await publish(late);
    const marker = await live();
    const markerBid = bid(marker.id, seller, 1);
    await publish(markerBid);
    await eventually(async () => expect((await priced(marker.id))[2]).toBe(1));
    expect(await processed([late.id])).toBe(1);
    expect(await priced(targets[0].id)).toEqual(newest);
  });

  it('applies one batch over many listings in one go: newer prices only, never to a sold or cancelled listing, the end only later', async () => {
    const seller = randomUUID();
    const [fresh, ahead, sold, cancelled] = [await under.live(seller, { starting_price: 1000 }), await under.live(seller, { starting_price: 1000 }), await under.live(seller, { starting_price: 1000 }), await under.live(seller, { starting_price: 1000 })];
    await ds.transaction((manager) => listings.setStatus(sold.id, 'sold', manager));
    await ds.query(`UPDATE listings SET status = 'cancelled', cancelled_at = now(), cancel_reason = 'test' WHERE id = $1`, [cancelled.id]);
    await ds.transaction((manager) => listings.applyBids([bid(ahead.id, seller, 9)].map((e) => e.payload), manager));
    const before = { sold: await priced(sold.id), cancelled: await priced(cancelled.id) };

    const batch = [bid(fresh.id, seller, 2), bid(ahead.id, seller, 4), bid(sold.id, seller, 5), bid(cancelled.id, seller, 6), bid(fresh.id, seller, 1)];
    await ds.transaction((manager) => listings.applyBids(batch.map((e) => ({ ...e.payload, expires_at: e.payload.price_version === 1 ? null : e.payload.expires_at })), manager));

    expect(await priced(fresh.id)).toEqual([1020, 2, 2, new Date(Date.UTC(2030, 0, 1) + 2 * HOUR).toISOString()]);
    expect(await priced(ahead.id)).toEqual([1090, 9, 9, new Date(Date.UTC(2030, 0, 1) + 9 * HOUR).toISOString()]);
    expect(await priced(sold.id)).toEqual(before.sold);
    expect(await priced(cancelled.id)).toEqual(before.cancelled);
  });
});
