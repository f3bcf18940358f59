import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@market/server-kit/testing';
import { AuctionsRepository } from '../auctions/auctions.repository';
import { SalesRepository } from './sales.repository';
import { EndSales } from './end-sales';
import { PlaceOffer } from '../bids/place-offer';
import { StandingBidsRepository } from './standing-bids.repository';
import { StandingBids } from './standing-bids';
import { placeOne } from '../testing/place-one';
import { openBiddingDatabase } from '../testing/bidding-under-test';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const who = (id: string) => ({ id, name: 'bidder' });

describe('the end of a sale (D5, D8)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let auctions: AuctionsRepository;
  let sales: EndSales;
  let rows: SalesRepository;
  let offers: PlaceOffer;

  const terms = (overrides: Record<string, unknown> = {}) => ({
    listing_id: randomUUID(),
    seller_id: randomUUID(),
    title: 'Recipe blog',
    website_url: 'https://recipes.example.com',
    status: 'active',
    listing_type: 'auction' as const,
    auction_type: 'auto' as const,
    starting_price: 1000,
    reserve_price: null as number | null,
    buy_now_price: null as number | null,
    expires_at: new Date(Date.now() + DAY).toISOString(),
    updated_at: new Date().toISOString(),
    ...overrides,
  });
  const apply = (t: ReturnType<typeof terms>, reopen = false) => ds.transaction((manager) => auctions.applyListing(t, manager, reopen));
  const events = async (listingId: string) =>
    (await ds.query(`SELECT name, payload FROM outbox WHERE payload->>'listing_id' = $1 ORDER BY seq`, [listingId])) as { name: string; payload: Record<string, unknown> }[];
  const statuses = async (listingId: string) =>
    ((await ds.query('SELECT amount::float8 AS amount, status FROM bids WHERE listing_id = $1 ORDER BY amount', [listingId])) as { amount: number; status: string }[]).map(
      (b) => `${b.amount}:${b.status}`,
    );
  /** A live auction with bids of the given amounts, ending `endsIn` ms from now. */
  const auctionWithBids = async (amounts: number[], overrides: Record<string, unknown> = {}) => {
    const listing = terms(overrides);
    await apply(listing);
    const bidders: string[] = [];
    for (const amount of amounts) {
      const bidder = randomUUID();
      const placed = await placeOne(auctions, listing.listing_id, who(bidder), amount, new Date(), 0);
      expect(placed?.decision.accepted).toBe(true);
      bidders.push(bidder);
    }
    return { listing, bidders };
  };
  const bidIds = async (listingId: string) =>
    ((await ds.query('SELECT id FROM bids WHERE listing_id = $1 ORDER BY amount', [listingId])) as { id: string }[]).map((r) => r.id);

  beforeAll(async () => {
    db = await createTestDatabase('sales');
    ds = await openBiddingDatabase(db.url, 16);
    auctions = new AuctionsRepository(ds);
    rows = new SalesRepository(ds);
    sales = new EndSales(auctions, rows, new StandingBids(auctions, new StandingBidsRepository(ds)));
    offers = new PlaceOffer(auctions);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('does nothing before the end; at the end sells an auto auction to its highest bid and rejects the rest', async () => {
    const { listing, bidders } = await auctionWithBids([1000, 1050, 1100]);
    expect(await sales.closeDue(listing.listing_id, new Date())).toEqual({ closed: false, expires_at: new Date(listing.expires_at) });
    const end = new Date(Date.now() + DAY + MINUTE);
    expect(await sales.closeDue(listing.listing_id, end)).toMatchObject({ closed: true, outcome: { outcome: 'sold', amount: 1100 } });
    expect(await statuses(listing.listing_id)).toEqual(['1000:rejected', '1050:rejected', '1100:accepted']);
    expect(await sales.closeDue(listing.listing_id, end)).toEqual({ closed: false, expires_at: null });
    const published = await events(listing.listing_id);
    expect(published.filter((e) => e.name === 'bid.accepted')).toEqual([
      {
        name: 'bid.accepted',
        payload: expect.objectContaining({ buyer_id: bidders[2], seller_id: listing.seller_id, amount: 1100, sale: 'auction_win', listing_title: 'Recipe blog', kind: 'bid' }),
      },
    ]);
    expect(published.filter((e) => e.name === 'auction.closed').map((e) => e.payload)).toEqual([
      expect.objectContaining({ outcome: 'sold', reason: 'won', buyer_id: bidders[2], amount: 1100, pending_bids: 0 }),
    ]);
    expect((await auctions.findAuction(listing.listing_id))?.status).toBe('sold');
  });

  it('lets a reserve-not-met auction expire; the seller may accept within 7 days, never after', async () => {
    const { listing } = await auctionWithBids([1000, 1050], { reserve_price: 5000 });
    const end = new Date(Date.now() + DAY + MINUTE);
    expect(await sales.closeDue(listing.listing_id, end)).toMatchObject({ closed: true, outcome: { outcome: 'expired', reason: 'reserve_not_met' } });
    expect(await statuses(listing.listing_id)).toEqual(['1000:pending', '1050:pending']);
    // The seller's "ended" email says how many bids they may still accept.
    expect((await events(listing.listing_id)).find((e) => e.name === 'auction.closed')?.payload).toMatchObject({ outcome: 'expired', pending_bids: 2 });
    const [low, high] = await bidIds(listing.listing_id);
    const late = new Date(end.getTime() + 7 * DAY);
    expect((await sales.decide(low, listing.seller_id, 'accept', late))?.decision).toEqual({ allowed: false, status: 400, reason: 'This bid can no longer be accepted' });
    expect((await sales.decide(low, listing.seller_id, 'accept', new Date(end.getTime() + 6 * DAY)))?.decision).toEqual({ allowed: true, sale: 'accepted_after_close' });
    expect(await statuses(listing.listing_id)).toEqual(['1000:accepted', '1050:rejected']);
    expect((await sales.decide(high, listing.seller_id, 'accept', new Date()))?.decision).toMatchObject({ allowed: false, reason: 'This bid has already been rejected' });
    const names = (await events(listing.listing_id)).map((e) => e.name).filter((n) => n !== 'bid.placed');
    expect(names).toEqual(['auction.closed', 'bid.accepted']);
  });

  it('rejects the pending bids of unsold sales once the 7 days are over', async () => {
    const { listing } = await auctionWithBids([1000], { auction_type: 'manual' });
    const end = new Date(Date.now() + DAY + MINUTE);
    expect(await sales.closeDue(listing.listing_id, end)).toMatchObject({ closed: true, outcome: { outcome: 'expired', reason: 'manual' } });
    expect(await rows.rejectLapsed(new Date(end.getTime() + 6 * DAY))).toBe(0);
    expect(await rows.rejectLapsed(new Date(end.getTime() + 7 * DAY))).toBe(1);
    expect(await statuses(listing.listing_id)).toEqual(['1000:rejected']);
  });

  it('lets only the seller act, keeps rejected bids from winning, and never reopens a sale from a listing event', async () => {
    const { listing, bidders } = await auctionWithBids([1000, 1050]);
    const [low, high] = await bidIds(listing.listing_id);
    expect((await sales.decide(high, bidders[1], 'accept', new Date()))?.decision).toMatchObject({ allowed: false, status: 403 });
    expect(await sales.decide(randomUUID(), listing.seller_id, 'accept', new Date())).toBeNull();
    expect((await sales.decide(high, listing.seller_id, 'reject', new Date()))?.decision).toEqual({ allowed: true, sale: null });
    // The rejected leader no longer leads: the next highest pending bid is the winning one.
    const rows = await auctions.userBids(listing.seller_id, 10);
    expect(rows.map((r) => [r.amount, r.status, r.is_winning])).toEqual([
      [1050, 'rejected', false],
      [1000, 'pending', true],
    ]);
    expect(await sales.closeDue(listing.listing_id, new Date(Date.now() + DAY + MINUTE))).toMatchObject({ closed: true, outcome: { outcome: 'sold', winning_bid_id: low } });
    // A listing update written before the sale ended arrives late: the sale stays sold.
    await apply({ ...listing, updated_at: new Date(Date.now() + 1000).toISOString() }, true);
    expect((await auctions.findAuction(listing.listing_id))?.status).toBe('sold');
  });

  it('re-approval of an expired listing starts a new period; a plain update does not', async () => {
    const { listing } = await auctionWithBids([], { auction_type: 'auto' });
    await sales.closeDue(listing.listing_id, new Date(Date.now() + DAY + MINUTE));
    await apply({ ...listing, status: 'active', updated_at: new Date(Date.now() + 1000).toISOString() });
    expect((await auctions.findAuction(listing.listing_id))?.status).toBe('expired');
    const next = new Date(Date.now() + 3 * DAY).toISOString();
    await apply({ ...listing, status: 'active', expires_at: next, updated_at: new Date(Date.now() + 2000).toISOString() }, true);
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ status: 'active', closed_at: null, expires_at: new Date(next) });
  });

  it('takes offers on fixed-price listings privately, and accepting one sells the listing', async () => {
    const listing = terms({ listing_type: 'fixed', starting_price: 8000, buy_now_price: 8000 });
    await apply(listing);
    expect((await offers.place(listing.listing_id, randomUUID(), 8001, new Date()))?.refusal).toBe('Offer cannot be above the asking price of $8,000');
    expect((await offers.place(listing.listing_id, listing.seller_id, 7000, new Date()))?.refusal).toBe('You cannot make an offer on your own listing');
    const buyer = randomUUID();
    const offer = await offers.place(listing.listing_id, buyer, 7000, new Date());
    expect(offer?.refusal).toBeNull();
    await offers.place(listing.listing_id, randomUUID(), 6000, new Date());
    expect(await auctions.bidsFor(listing.listing_id, 10)).toEqual([]);
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ current_bid: null, bid_count: 0 });
    const sellerRows = await auctions.userBids(listing.seller_id, 10);
    expect(sellerRows.map((r) => [r.role, r.kind, r.amount])).toEqual([
      ['seller', 'offer', 6000],
      ['seller', 'offer', 7000],
    ]);
    expect((await sales.decide(offer!.bid!.id, listing.seller_id, 'accept', new Date()))?.decision).toEqual({ allowed: true, sale: 'bid_accepted' });
    expect(await statuses(listing.listing_id)).toEqual(['6000:rejected', '7000:accepted']);
    const buyerRows = await auctions.userBids(buyer, 10);
    expect(buyerRows).toEqual([expect.objectContaining({ role: 'buyer', status: 'accepted', is_winning: true, listing_title: 'Recipe blog' })]);
    const accepted = (await events(listing.listing_id)).find((e) => e.name === 'bid.accepted');
    expect(accepted?.payload).toMatchObject({ kind: 'offer', sale: 'bid_accepted', buyer_id: buyer, amount: 7000 });
  });

  it('has exactly one winner when closes run many times at once and the seller accepts at the moment of expiry', async () => {
    for (let round = 0; round < 15; round += 1) {
      const { listing } = await auctionWithBids([1000, 1050, 1100]);
      const [low] = await bidIds(listing.listing_id);
      const end = new Date(Date.now() + DAY + MINUTE);
      const results = await Promise.all([
        ...Array.from({ length: 6 }, () => sales.closeDue(listing.listing_id, end)),
        sales.decide(low, listing.seller_id, 'accept', end),
        sales.decide(low, listing.seller_id, 'accept', end),
      ]);
      const accepted = await ds.query(`SELECT id FROM bids WHERE listing_id = $1 AND status = 'accepted'`, [listing.listing_id]);
      expect(accepted).toHaveLength(1);
      const published = await events(listing.listing_id);
      expect(published.filter((e) => e.name === 'bid.accepted')).toHaveLength(1);
      expect(published.filter((e) => e.name === 'auction.closed')).toHaveLength(1);
      // Whoever runs first at the end closes the sale: the highest bid wins, never the one the seller tried to take.
      expect(results.slice(6).filter((r) => r && 'decision' in r && r.decision.allowed)).toEqual([]);
      expect(published.find((e) => e.name === 'bid.accepted')?.payload).toMatchObject({ amount: 1100, sale: 'auction_win' });
    }
  });

  it('sells at the buy-now price to exactly one buyer when several press at once, and closes the sale', async () => {
    const listing = terms({ listing_type: 'fixed', starting_price: 4500 });
    await apply(listing);
    const buyers = Array.from({ length: 6 }, () => randomUUID());
    const results = await Promise.all(buyers.map((buyer) => sales.buyNow(listing.listing_id, buyer, new Date())));
    const bought = results.filter((r) => r?.refusal === null);
    expect(bought).toHaveLength(1);
    expect(results.filter((r) => r?.refusal === 'This listing is no longer available')).toHaveLength(5);
    expect(bought[0]?.bid).toMatchObject({ kind: 'buy_now', amount: 4500, status: 'accepted' });
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ status: 'sold', winning_bid_id: bought[0]?.bid?.id });
    const published = await events(listing.listing_id);
    expect(published.find((e) => e.name === 'bid.accepted')?.payload).toMatchObject({
      sale: 'buy_now',
      kind: 'buy_now',
      amount: 4500,
      website_url: 'https://recipes.example.com',
      listing_title: 'Recipe blog',
    });
    expect(published.find((e) => e.name === 'auction.closed')?.payload).toMatchObject({ outcome: 'sold', reason: 'bought' });
    expect(await sales.buyNow(randomUUID(), buyers[0], new Date())).toBeNull();
  });

  it('refuses buy-now at $5,000 and up, to the seller, and once bidding has passed the price', async () => {
    const dear = terms({ listing_type: 'fixed', starting_price: 5000 });
    await apply(dear);
    expect((await sales.buyNow(dear.listing_id, randomUUID(), new Date()))?.refusal).toBe('Purchases from $5,000 are completed through escrow: contact the seller');
    const { listing } = await auctionWithBids([1000, 1050], { buy_now_price: 1050 });
    expect((await sales.buyNow(listing.listing_id, randomUUID(), new Date()))?.refusal).toBe('Bidding has passed the buy now price');
    expect((await sales.buyNow(listing.listing_id, listing.seller_id, new Date()))?.refusal).toBe('You cannot buy your own listing');
    expect((await auctions.findAuction(listing.listing_id))?.status).toBe('active');
  });

  it('keeps a deleted listing deleted when an older listing event arrives late, and rejects its bids', async () => {
    const { listing } = await auctionWithBids([1000]);
    await ds.transaction((manager) => auctions.removeListing(listing, manager));
    await apply({ ...listing, status: 'active', updated_at: new Date(Date.now() + 60_000).toISOString() }, true);
    expect((await auctions.findAuction(listing.listing_id))?.status).toBe('deleted');
    expect(await statuses(listing.listing_id)).toEqual(['1000:rejected']);
    expect((await placeOne(auctions, listing.listing_id, who(randomUUID()), 1050, new Date(), 0))?.decision.accepted).toBe(false);
    // A deletion that arrives before the listing was ever seen leaves a tombstone too.
    const unseen = terms();
    await ds.transaction((manager) => auctions.removeListing(unseen, manager));
    await apply(unseen, true);
    expect((await auctions.findAuction(unseen.listing_id))?.status).toBe('deleted');
  });

  it('ends a sale that went back to draft at its end, so its bids never hang', async () => {
    const { listing } = await auctionWithBids([1000]);
    await apply({ ...listing, status: 'draft', updated_at: new Date(Date.now() + 1000).toISOString() });
    const end = new Date(Date.now() + DAY + MINUTE);
    expect(await rows.dueListingIds(end, 1000)).toContain(listing.listing_id);
    expect(await sales.closeDue(listing.listing_id, end)).toMatchObject({ closed: true, outcome: { outcome: 'sold', amount: 1000 } });
  });

  it('gives up on a row lock after 2 s with a clear 503 and stores nothing', async () => {
    const listing = terms();
    await apply(listing);
    const runner = ds.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query('SELECT 1 FROM auctions WHERE listing_id = $1 FOR UPDATE', [listing.listing_id]);
    try {
      await expect(placeOne(auctions, listing.listing_id, who(randomUUID()), 1000, new Date(), 0)).rejects.toMatchObject({
        status: 503,
        detail: 'This listing is busy right now; nothing was changed. Please try again.',
      });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await statuses(listing.listing_id)).toEqual([]);
  });
});
