import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { createTestDatabase, type TestDatabase } from '@market/server-kit/testing';
import { AuctionsRepository } from '../auctions/auctions.repository';
import { SalesRepository } from './sales.repository';
import { EndSales } from './end-sales';
import { StandingBidsRepository } from './standing-bids.repository';
import { StandingBids } from './standing-bids';
import { UnwindSale } from './unwind-sale';
import { BuyerStrikesRepository } from '../holds/buyer-strikes.repository';
import { liftBuyingHold } from '../holds/lift-buying-hold';
import { placeOne } from '../testing/place-one';
import { openBiddingDatabase } from '../testing/bidding-under-test';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const who = (id: string) => ({ id, name: 'bidder' });

describe('unwinding a sale whose invoice lapsed (ADR 0043)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let auctions: AuctionsRepository;
  let sales: EndSales;
  let unwinding: UnwindSale;

  const terms = (overrides: Record<string, unknown> = {}) => ({
    listing_id: randomUUID(),
    seller_id: randomUUID(),
    title: 'Recipe blog',
    website_url: 'https://recipes.example.com',
    status: 'active',
    listing_type: 'auction' as 'auction' | 'fixed',
    auction_type: 'auto' as const,
    starting_price: 1000,
    reserve_price: null as number | null,
    buy_now_price: null as number | null,
    expires_at: new Date(Date.now() + DAY).toISOString(),
    updated_at: new Date().toISOString(),
    ...overrides,
  });
  const apply = (t: ReturnType<typeof terms>) => ds.transaction((manager) => auctions.applyListing(t, manager));
  const eventsNamed = async (name: string, listingId: string) =>
    (await ds.query(`SELECT payload FROM outbox WHERE name = $1 AND payload->>'listing_id' = $2 ORDER BY seq`, [name, listingId])).map(
      (row: { payload: Record<string, unknown> }) => row.payload,
    );
  const bids = async (listingId: string) =>
    ((await ds.query('SELECT amount::float8 AS amount, status, rejection FROM bids WHERE listing_id = $1 ORDER BY amount', [listingId])) as {
      amount: number;
      status: string;
      rejection: string | null;
    }[]).map((b) => `${b.amount}:${b.status}${b.rejection ? `:${b.rejection}` : ''}`);
  const auctionOf = async (listingId: string) =>
    (await ds.query('SELECT status, winning_bid_id, closed_at, current_bid::float8 AS current_bid, bid_count FROM auctions WHERE listing_id = $1', [listingId]))[0];
  const lapse = (listing: ReturnType<typeof terms>, bidId: string, buyerId: string, amount: number, overrides: Partial<EventPayloads['sale.lapsed']> = {}): EventPayloads['sale.lapsed'] => ({
    invoice_id: randomUUID(),
    invoice_number: 'INV-2026-000001',
    listing_id: listing.listing_id,
    bid_id: bidId,
    buyer_id: buyerId,
    seller_id: listing.seller_id,
    website_title: listing.title,
    kind: 'buy_now',
    amount,
    lapsed_at: new Date().toISOString(),
    reason: 'unpaid',
    strike: true,
    note: null,
    ...overrides,
  });
  const unwind = (event: EventPayloads['sale.lapsed'], now = new Date()) => ds.transaction((manager) => unwinding.unwind(event, manager, now));
  const strikesOf = async (buyerId: string): Promise<number> =>
    (await ds.query('SELECT count(*)::int AS n FROM buyer_strikes WHERE buyer_id = $1', [buyerId]))[0].n;

  beforeAll(async () => {
    db = await createTestDatabase('unwinding');
    ds = await openBiddingDatabase(db.url, 8);
    auctions = new AuctionsRepository(ds);
    const standing = new StandingBids(auctions, new StandingBidsRepository(ds));
    const rows = new SalesRepository(ds);
    sales = new EndSales(auctions, rows, standing);
    unwinding = new UnwindSale(auctions, rows, new BuyerStrikesRepository(ds), standing);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('a lapsed buy-now of a live fixed-price listing puts it back on sale, strikes the buyer once, and a redelivery changes nothing', async () => {
    const listing = terms({ listing_type: 'fixed', starting_price: 3000 });
    await apply(listing);
    const buyer = randomUUID();
    const bought = await sales.buyNow(listing.listing_id, buyer, new Date());
    const bidId = bought?.bid?.id as string;
    expect((await auctionOf(listing.listing_id)).status).toBe('sold');

    const event = lapse(listing, bidId, buyer, 3000);
    expect(await unwind(event)).toMatchObject({ unwound: true, status: 'active' });
    expect(await auctionOf(listing.listing_id)).toMatchObject({ status: 'active', winning_bid_id: null, closed_at: null });
    expect(await bids(listing.listing_id)).toEqual(['3000:rejected:lapsed']);
    expect(await strikesOf(buyer)).toBe(1);
    const [told] = await eventsNamed('sale.unwound', listing.listing_id);
    expect(told).toMatchObject({ bid_id: bidId, buyer_id: buyer, seller_id: listing.seller_id, status: 'active', expires_at: listing.expires_at, pending_bids: 0, reason: 'unpaid' });

    // Delivered again: the sale is already unwound and the strike already counted.
    expect(await unwind(event)).toEqual({ unwound: false });
    expect(await eventsNamed('sale.unwound', listing.listing_id)).toHaveLength(1);
    expect(await strikesOf(buyer)).toBe(1);
    // Someone else may buy it now.
    expect((await sales.buyNow(listing.listing_id, randomUUID(), new Date()))?.refusal).toBeNull();
  });

  it('a lapsed buy-now of a live auction restores the bids it turned down and reprices from them', async () => {
    const listing = terms({ buy_now_price: 4000 });
    await apply(listing);
    for (const amount of [1000, 1100]) await placeOne(auctions, listing.listing_id, who(randomUUID()), amount, new Date(), 0);
    const buyer = randomUUID();
    const bidId = (await sales.buyNow(listing.listing_id, buyer, new Date()))?.bid?.id as string;
    expect(await bids(listing.listing_id)).toEqual(['1000:rejected', '1100:rejected', '4000:accepted']);

    await unwind(lapse(listing, bidId, buyer, 4000));
    expect(await bids(listing.listing_id)).toEqual(['1000:pending', '1100:pending', '4000:rejected:lapsed']);
    expect(await auctionOf(listing.listing_id)).toMatchObject({ status: 'active', current_bid: 1100, bid_count: 2 });
    const [told] = await eventsNamed('sale.unwound', listing.listing_id);
    expect(told).toMatchObject({ status: 'active', current_bid: 1100, bid_count: 2, pending_bids: 2 });
  });

  it('a lapsed auction win leaves the auction ended with its other bids open for the seller to accept the next highest', async () => {
    const listing = terms({ expires_at: new Date(Date.now() + MINUTE).toISOString() });
    await apply(listing);
    const bidders = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, amount] of [1000, 1050, 1100].entries()) await placeOne(auctions, listing.listing_id, who(bidders[i]), amount, new Date(), 0);
    const closed = await sales.closeDue(listing.listing_id, new Date(Date.now() + 2 * MINUTE));
    expect(closed).toMatchObject({ closed: true, outcome: { outcome: 'sold' } });
    const [winner] = await ds.query(`SELECT id FROM bids WHERE listing_id = $1 AND status = 'accepted'`, [listing.listing_id]);

    const now = new Date(Date.now() + 2 * DAY);
    await unwind(lapse(listing, winner.id, bidders[2], 1100, { kind: 'bid' }), now);
    expect(await bids(listing.listing_id)).toEqual(['1000:pending', '1050:pending', '1100:rejected:lapsed']);
    // The public history no longer shows the lapsed bid above the price.
    expect((await auctions.bidsFor(listing.listing_id, 10)).map((b) => b.amount)).toEqual([1050, 1000]);
    const after = await auctionOf(listing.listing_id);
    expect(after).toMatchObject({ status: 'expired', winning_bid_id: null });
    expect(after.closed_at.getTime()).toBe(now.getTime());
    expect((await eventsNamed('sale.unwound', listing.listing_id))[0]).toMatchObject({ status: 'expired', pending_bids: 2 });

    // The seller's second chance: accept the next-highest bid at its amount (accept after close, D8).
    const [next] = await ds.query(`SELECT id FROM bids WHERE listing_id = $1 AND amount = 1050`, [listing.listing_id]);
    const accepted = await sales.decide(next.id, listing.seller_id, 'accept', new Date(now.getTime() + MINUTE));
    expect(accepted?.decision).toEqual({ allowed: true, sale: 'accepted_after_close' });
    const sold = await eventsNamed('bid.accepted', listing.listing_id);
    expect(sold[sold.length - 1]).toMatchObject({ bid_id: next.id, buyer_id: bidders[1], amount: 1050, sale: 'accepted_after_close' });
  });

  it('an admin cancellation without a strike unwinds the sale and strikes nobody', async () => {
    const listing = terms({ listing_type: 'fixed', starting_price: 2000 });
    await apply(listing);
    const buyer = randomUUID();
    const bidId = (await sales.buyNow(listing.listing_id, buyer, new Date()))?.bid?.id as string;
    await unwind(lapse(listing, bidId, buyer, 2000, { reason: 'admin_cancelled', strike: false, note: 'The buyer asked to withdraw' }));
    expect(await bids(listing.listing_id)).toEqual(['2000:rejected:sale_cancelled']);
    expect(await strikesOf(buyer)).toBe(0);
  });

  it('a second strike within 90 days puts buying on hold; a redelivery adds none; an admin lifts it, audited once', async () => {
    const strikes = new BuyerStrikesRepository(ds);
    const buyer = randomUUID();
    const lapseOnce = async () => {
      const listing = terms({ listing_type: 'fixed', starting_price: 1500 });
      await apply(listing);
      const bidId = (await sales.buyNow(listing.listing_id, buyer, new Date()))?.bid?.id as string;
      const event = lapse(listing, bidId, buyer, 1500);
      await unwind(event);
      await unwind(event);
    };
    await lapseOnce();
    expect(await strikes.onHoldNow(buyer)).toBe(false);
    await lapseOnce();
    expect(await strikesOf(buyer)).toBe(2);
    expect(await strikes.onHoldNow(buyer)).toBe(true);

    const member = { user_id: randomUUID(), role: 'regular' as const };
    await expect(liftBuyingHold(strikes, member, buyer)).rejects.toMatchObject({ status: 403 });
    const admin = { user_id: randomUUID(), role: 'admin' as const };
    expect(await liftBuyingHold(strikes, admin, buyer)).toEqual({ user_id: buyer, on_hold: false, strikes: 0, lifted: 2 });
    expect(await liftBuyingHold(strikes, admin, buyer)).toEqual({ user_id: buyer, on_hold: false, strikes: 0, lifted: 0 });
    const audited = await ds.query(`SELECT payload FROM outbox WHERE name = 'admin.acted' AND payload->>'target_id' = $1`, [buyer]);
    expect(audited).toEqual([{ payload: expect.objectContaining({ admin_id: admin.user_id, action: 'user.buying_hold_lifted', target_type: 'user' }) }]);
    expect(await strikes.onHoldNow(buyer)).toBe(false);
  });
});
