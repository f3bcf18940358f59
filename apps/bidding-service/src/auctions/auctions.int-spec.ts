import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { minimumNextBid } from '@market/domain';
import { createTestDatabase, type TestDatabase } from '@market/server-kit/testing';
import { AuctionsRepository } from './auctions.repository';
import { placeOne } from '../testing/place-one';
import { openBiddingDatabase } from '../testing/bidding-under-test';

const HOUR = 3600_000;
const who = (id: string) => ({ id, name: 'bidder' });

describe('auction state and bids', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let auctions: AuctionsRepository;

  const terms = (overrides: Record<string, unknown> = {}) => ({
    listing_id: randomUUID(),
    seller_id: randomUUID(),
    title: 'A site for sale',
    website_url: 'https://site.example.com',
    status: 'active',
    listing_type: 'auction' as const,
    auction_type: 'auto' as const,
    starting_price: 1000,
    reserve_price: 5000,
    buy_now_price: null,
    expires_at: new Date(Date.now() + 24 * HOUR).toISOString(),
    updated_at: new Date().toISOString(),
    ...overrides,
  });
  const apply = (t: ReturnType<typeof terms>) => ds.transaction((manager) => auctions.applyListing(t, manager));

  beforeAll(async () => {
    db = await createTestDatabase('bidding');
    ds = await openBiddingDatabase(db.url, 12);
    auctions = new AuctionsRepository(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('applies listing events only when newer, whatever order they arrive in', async () => {
    const first = terms({ updated_at: '2026-11-22T10:00:00.000Z' });
    await apply({ ...first, status: 'paused', updated_at: '2026-11-22T10:05:00.000Z' });
    await apply(first);
    expect((await auctions.findAuction(first.listing_id))?.status).toBe('paused');
    await apply({ ...first, status: 'active', updated_at: '2026-11-22T10:06:00.000Z' });
    expect((await auctions.findAuction(first.listing_id))?.status).toBe('active');
  });

  it('keeps an end that soft close moved later when an older end arrives', async () => {
    const listing = terms({ expires_at: new Date(Date.now() + 5 * 60_000).toISOString() });
    await apply(listing);
    const placed = await placeOne(auctions, listing.listing_id, who(randomUUID()), 1000, new Date(), 10);
    expect(placed?.decision).toMatchObject({ accepted: true, extended: true });
    await apply({ ...listing, updated_at: new Date(Date.now() + 1000).toISOString() });
    const after = await auctions.findAuction(listing.listing_id);
    expect(after?.expires_at?.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
  });

  it('refuses bids with the rule that was broken, and on unknown listings answers null', async () => {
    const listing = terms();
    await apply(listing);
    expect((await placeOne(auctions, listing.listing_id, who(listing.seller_id), 2000, new Date(), 10))?.decision).toEqual({
      accepted: false,
      reason: 'You cannot bid on your own listing',
    });
    expect((await placeOne(auctions, listing.listing_id, who(randomUUID()), 999, new Date(), 10))?.decision).toEqual({ accepted: false, reason: 'Bid must be at least $1,000' });
    expect(await placeOne(auctions, randomUUID(), who(randomUUID()), 2000, new Date(), 10)).toBeNull();
    expect(await auctions.bidsFor(listing.listing_id, 10)).toEqual([]);
  });

  it('writes the bid, the auction and its bid.placed event together, stamped with the bid time', async () => {
    const listing = terms({ reserve_price: 1500 });
    await apply(listing);
    const bidder = randomUUID();
    const placed = await placeOne(auctions, listing.listing_id, { id: bidder, name: 'ann' }, 1000, new Date(), 10);
    const bid = placed!.bid!;
    const [event] = await ds.query(`SELECT name, payload FROM outbox WHERE payload->>'bid_id' = $1`, [bid.id]);
    expect(event).toEqual({
      name: 'bid.placed',
      payload: {
        bid_id: bid.id,
        listing_id: listing.listing_id,
        bidder_id: bidder,
        bidder_name: 'ann',
        amount: 1000,
        current_bid: 1000,
        bid_count: 1,
        reserve_met: false,
        expires_at: new Date(listing.expires_at).toISOString(),
        extended: false,
        created_at: bid.created_at.toISOString(),
        seller_id: listing.seller_id,
        listing_title: 'A site for sale',
        previous_leader_id: null,
        price_version: 1,
        automatic: false,
      },
    });
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ current_bid: 1000, bid_count: 1 });
  });

  it('names the bidder who led before each bid, but not a leader raising their own bid (D19 outbid email)', async () => {
    const listing = terms();
    await apply(listing);
    const [ann, bob] = [randomUUID(), randomUUID()];
    const leaders: (string | null)[] = [];
    for (const [bidder, amount] of [[ann, 1000], [bob, 1050], [bob, 1100], [ann, 1150]] as const) {
      const placed = await placeOne(auctions, listing.listing_id, { id: bidder, name: 'x' }, amount, new Date(), 10);
      const [event] = await ds.query(`SELECT payload FROM outbox WHERE payload->>'bid_id' = $1`, [placed!.bid!.id]);
      leaders.push(event.payload.previous_leader_id);
    }
    expect(leaders).toEqual([null, ann, null, bob]);
  });

  it('never loses an update when many bidders bid on one listing at once', async () => {
    const listing = terms({ starting_price: 500 });
    await apply(listing);
    const bidders = Array.from({ length: 8 }, () => randomUUID());
    let answered = 0;
    // Each bidder reads the price and bids the minimum it saw, over and over: most collide and some lose.
    await Promise.all(
      bidders.map(async (bidder) => {
        for (let round = 0; round < 12; round += 1) {
          const seen = await auctions.findAuction(listing.listing_id);
          await placeOne(auctions, listing.listing_id, who(bidder), minimumNextBid(seen!.starting_price, seen!.current_bid), new Date(), 0);
          answered += 1;
        }
      }),
    );
    expect(answered).toBe(96);
    const bids = (await auctions.bidsFor(listing.listing_id, 1000)).reverse();
    const state = await auctions.findAuction(listing.listing_id);
    expect(bids.length).toBeGreaterThan(8);
    expect(state?.bid_count).toBe(bids.length);
    expect(state?.current_bid).toBe(bids[bids.length - 1].amount);
    for (let i = 1; i < bids.length; i += 1) {
      expect(bids[i].amount).toBeGreaterThanOrEqual(minimumNextBid(500, bids[i - 1].amount));
      expect(bids[i].created_at.getTime()).toBeGreaterThanOrEqual(bids[i - 1].created_at.getTime());
    }
  });
});
