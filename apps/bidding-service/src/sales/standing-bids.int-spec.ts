import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { minimumNextBid } from '@market/domain';
import { createTestDatabase, type TestDatabase } from '@market/server-kit/testing';
import { AuctionsRepository } from '../auctions/auctions.repository';
import { BARRED, BARRED_BIDDER } from '../auctions/bidding.policy';
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

describe('bids leaving an auction: repricing and moderation (ADR 0038)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let auctions: AuctionsRepository;
  let standing: StandingBids;
  let sales: EndSales;
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
  /** A live auction with one bid per [bidder, amount], in order. */
  const auctionWith = async (bids: [string, number][], overrides: Record<string, unknown> = {}) => {
    const listing = terms(overrides);
    await ds.transaction((manager) => auctions.applyListing(listing, manager));
    const ids: string[] = [];
    for (const [bidder, amount] of bids) {
      const placed = await placeOne(auctions, listing.listing_id, who(bidder), amount, new Date(), 0);
      expect(placed?.decision.accepted).toBe(true);
      ids.push(placed!.bid!.id);
    }
    return { listing, ids };
  };
  const repriced = async (listingId: string) =>
    ((await ds.query(`SELECT payload FROM outbox WHERE name = 'auction.repriced' AND payload->>'listing_id' = $1 ORDER BY seq`, [listingId])) as {
      payload: Record<string, unknown>;
    }[]).map((r) => r.payload);
  const pendingOf = async (listingId: string) =>
    ((await ds.query(`SELECT amount::float8 AS amount FROM bids WHERE listing_id = $1 AND status = 'pending' AND kind = 'bid' ORDER BY amount`, [listingId])) as {
      amount: number;
    }[]).map((r) => r.amount);
  const suspend = async (userId: string, at = new Date()) => {
    await standing.recordMember(userId, 'suspended', at);
    return standing.sweepMember(userId, new Date());
  };

  beforeAll(async () => {
    db = await createTestDatabase('standing');
    ds = await openBiddingDatabase(db.url, 16);
    auctions = new AuctionsRepository(ds);
    standing = new StandingBids(auctions, new StandingBidsRepository(ds));
    sales = new EndSales(auctions, new SalesRepository(ds), standing);
    offers = new PlaceOffer(auctions);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it("the seller's rejection of the leading bid reprices the auction in its transaction: the next bid leads, the reserve follows", async () => {
    const [ann, bob, cat] = [randomUUID(), randomUUID(), randomUUID()];
    const { listing, ids } = await auctionWith([[ann, 1000], [bob, 1050], [cat, 1100]], { reserve_price: 1080 });
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ current_bid: 1100, bid_count: 3, price_version: 3 });

    const result = await sales.decide(ids[2], listing.seller_id, 'reject', new Date());
    expect(result?.decision.allowed).toBe(true);
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ current_bid: 1050, bid_count: 2, price_version: 4 });
    expect(await repriced(listing.listing_id)).toEqual([
      expect.objectContaining({ listing_id: listing.listing_id, current_bid: 1050, bid_count: 2, reserve_met: false, price_version: 4, reason: 'bid_rejected' }),
    ]);
    // The public history matches: the rejected bid has left it.
    expect((await auctions.bidsFor(listing.listing_id, 10)).map((b) => b.amount)).toEqual([1050, 1000]);
    // The next bid is judged against the new price, and carries the next version.
    const next = await placeOne(auctions, listing.listing_id, who(cat), minimumNextBid(1000, 1050), new Date(), 0);
    expect(next?.decision).toMatchObject({ accepted: true, current_bid: 1100, bid_count: 3 });
    const [placed] = await ds.query(`SELECT payload FROM outbox WHERE payload->>'bid_id' = $1`, [next!.bid!.id]);
    expect(placed.payload).toMatchObject({ price_version: 5, previous_leader_id: bob });
  });

  it('rejecting every bid leaves no price; rejecting one below the leader lowers only the count', async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const { listing, ids } = await auctionWith([[ann, 1000], [bob, 1050]]);
    await sales.decide(ids[0], listing.seller_id, 'reject', new Date());
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ current_bid: 1050, bid_count: 1 });
    await sales.decide(ids[1], listing.seller_id, 'reject', new Date());
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ current_bid: null, bid_count: 0, price_version: 4 });
    expect((await repriced(listing.listing_id)).map((p) => [p.current_bid, p.bid_count, p.reserve_met])).toEqual([
      [1050, 1, true],
      [null, 0, true],
    ]);
    // Back to the starting price.
    expect((await placeOne(auctions, listing.listing_id, who(ann), 1000, new Date(), 0))?.decision.accepted).toBe(true);
  });

  it('an offer turned down on a fixed-price listing changes no public price and writes no repricing', async () => {
    const listing = terms({ listing_type: 'fixed' });
    await ds.transaction((manager) => auctions.applyListing(listing, manager));
    const offer = await offers.place(listing.listing_id, randomUUID(), 900, new Date());
    await sales.decide(offer!.bid!.id, listing.seller_id, 'reject', new Date());
    expect(await repriced(listing.listing_id)).toEqual([]);
  });

  it("a suspension rejects the member's pending bids and offers in every auction and reprices each; the others' bids stand", async () => {
    const [member, other] = [randomUUID(), randomUUID()];
    const leading = await auctionWith([[other, 1000], [member, 1050]]);
    const trailing = await auctionWith([[member, 1000], [other, 1050]]);
    const alone = await auctionWith([[member, 2000]], { reserve_price: 1500 });
    const untouched = await auctionWith([[other, 1000]]);
    const fixed = terms({ listing_type: 'fixed' });
    await ds.transaction((manager) => auctions.applyListing(fixed, manager));
    await offers.place(fixed.listing_id, member, 900, new Date());

    const changed = await suspend(member);
    expect(changed.sort()).toEqual([leading.listing.listing_id, trailing.listing.listing_id, alone.listing.listing_id, fixed.listing_id].sort());
    expect(await auctions.findAuction(leading.listing.listing_id)).toMatchObject({ current_bid: 1000, bid_count: 1 });
    expect(await auctions.findAuction(trailing.listing.listing_id)).toMatchObject({ current_bid: 1050, bid_count: 1 });
    expect(await auctions.findAuction(alone.listing.listing_id)).toMatchObject({ current_bid: null, bid_count: 0 });
    expect(await auctions.findAuction(untouched.listing.listing_id)).toMatchObject({ current_bid: 1000, bid_count: 1, price_version: 1 });
    expect((await repriced(alone.listing.listing_id))[0]).toMatchObject({ current_bid: null, reserve_met: false, reason: 'bidder_removed' });
    expect(await ds.query(`SELECT status FROM bids WHERE bidder_id = $1 AND status = 'pending'`, [member])).toEqual([]);
    expect((await auctions.bidsFor(leading.listing.listing_id, 10)).map((b) => b.amount)).toEqual([1000]);
    // The member's new bids, offers and purchases are refused until a reactivation.
    expect((await placeOne(auctions, untouched.listing.listing_id, who(member), 5000, new Date(), 0))?.decision).toEqual({ accepted: false, reason: BARRED });
    expect((await offers.place(fixed.listing_id, member, 900, new Date()))?.refusal).toBe(BARRED);

    // Run again (a redelivery): nothing left to change, no event written.
    const events = await ds.query(`SELECT count(*)::int AS n FROM outbox`);
    expect(await suspend(member)).toEqual([]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM outbox`)).toEqual(events);

    await standing.recordMember(member, 'active', new Date());
    expect((await placeOne(auctions, untouched.listing.listing_id, who(member), 1050, new Date(), 0))?.decision.accepted).toBe(true);
  });

  it('an older suspension arriving after a newer reactivation changes nothing; a deletion is final', async () => {
    const member = randomUUID();
    const { listing } = await auctionWith([[member, 1000]]);
    const suspendedAt = new Date(Date.now() - MINUTE);
    expect(await standing.recordMember(member, 'active', new Date())).toBe('active');
    expect(await standing.recordMember(member, 'suspended', suspendedAt)).toBe('active');
    expect(await pendingOf(listing.listing_id)).toEqual([1000]);
    expect(await standing.recordMember(member, 'deleted', suspendedAt)).toBe('deleted');
    expect(await standing.recordMember(member, 'active', new Date(Date.now() + MINUTE))).toBe('deleted');
  });

  it('a suspension during a bid storm ends consistent: the price is the highest standing bid and the count the standing bids', async () => {
    const member = randomUUID();
    const bidders = [member, ...Array.from({ length: 5 }, () => randomUUID())];
    // The member leads first, so the suspension always has a bid to take back.
    const { listing } = await auctionWith([[member, 500]], { starting_price: 500 });
    let stormOver = false;
    const storm = Promise.all(
      bidders.map(async (bidder) => {
        for (let round = 0; round < 15; round += 1) {
          const seen = await auctions.findAuction(listing.listing_id);
          await placeOne(auctions, listing.listing_id, who(bidder), minimumNextBid(500, seen!.current_bid), new Date(), 0);
        }
      }),
    ).finally(() => (stormOver = true));
    // The suspension lands while the storm runs: once a dozen bids stand.
    let suspended = false;
    const sweep = (async () => {
      while (!stormOver && (await ds.query(`SELECT 1 FROM bids WHERE listing_id = $1`, [listing.listing_id])).length < 12) await new Promise((r) => setImmediate(r));
      suspended = !stormOver;
      await suspend(member);
    })();
    await Promise.all([storm, sweep]);
    expect(suspended).toBe(true);
    const left = await pendingOf(listing.listing_id);
    const state = await auctions.findAuction(listing.listing_id);
    expect(await ds.query(`SELECT 1 FROM bids WHERE bidder_id = $1 AND status = 'pending'`, [member])).toEqual([]);
    expect(state?.bid_count).toBe(left.length);
    expect(state?.current_bid).toBe(left.length === 0 ? null : left[left.length - 1]);
    // What listings and viewers were last told matches the row: the newest event by version.
    const [last] = await ds.query(
      `SELECT payload FROM outbox WHERE name IN ('bid.placed', 'auction.repriced') AND payload->>'listing_id' = $1 ORDER BY (payload->>'price_version')::int DESC LIMIT 1`,
      [listing.listing_id],
    );
    expect(last.payload).toMatchObject({ current_bid: state?.current_bid ?? null, bid_count: state?.bid_count, price_version: state?.price_version });
  });

  it("a removed member's bid never wins at the close, even before the sweep reached its auction", async () => {
    const [member, other, third] = [randomUUID(), randomUUID(), randomUUID()];
    const { listing } = await auctionWith([[third, 1000], [other, 1050], [member, 1100]]);
    await standing.recordMember(member, 'suspended', new Date());
    const result = await sales.closeDue(listing.listing_id, new Date(Date.now() + DAY + MINUTE));
    expect(result).toMatchObject({ closed: true, outcome: { outcome: 'sold', amount: 1050 } });
    const [accepted] = await ds.query(`SELECT payload FROM outbox WHERE name = 'bid.accepted' AND payload->>'listing_id' = $1`, [listing.listing_id]);
    expect(accepted.payload).toMatchObject({ buyer_id: other, amount: 1050 });
    // The bid that lost at the end stays in the history; the removed member's leaves it.
    expect((await auctions.bidsFor(listing.listing_id, 10)).map((b) => b.amount)).toEqual([1050, 1000]);
  });

  it('a sweep that runs after the member was reactivated takes back nothing: the new bids are theirs to keep', async () => {
    const member = randomUUID();
    const { listing } = await auctionWith([[randomUUID(), 1000], [member, 1050]]);
    await standing.recordMember(member, 'suspended', new Date(Date.now() - MINUTE));
    await standing.recordMember(member, 'active', new Date());
    expect(await standing.sweepMember(member, new Date())).toEqual([]);
    expect(await pendingOf(listing.listing_id)).toEqual([1000, 1050]);
  });

  it("a seller cannot accept a removed member's bid, even before the sweep reached it; another bid can still be accepted", async () => {
    const [member, other] = [randomUUID(), randomUUID()];
    const { listing, ids } = await auctionWith([[other, 1000], [member, 1100]], { auction_type: 'manual' });
    await standing.recordMember(member, 'suspended', new Date());
    const refused = await sales.decide(ids[1], listing.seller_id, 'accept', new Date());
    expect(refused?.decision).toEqual({ allowed: false, status: 400, reason: BARRED_BIDDER });
    expect(await ds.query(`SELECT 1 FROM outbox WHERE name = 'bid.accepted' AND payload->>'listing_id' = $1`, [listing.listing_id])).toEqual([]);
    const accepted = await sales.decide(ids[0], listing.seller_id, 'accept', new Date());
    expect(accepted?.decision.allowed).toBe(true);
  });

  it("a suspended seller's auction does not sell at its end: it expires with its bids open for the seller (D8)", async () => {
    const bidder = randomUUID();
    const { listing } = await auctionWith([[bidder, 1000]]);
    await standing.recordMember(listing.seller_id, 'suspended', new Date());
    expect(await sales.closeDue(listing.listing_id, new Date(Date.now() + DAY + MINUTE))).toMatchObject({ closed: true, outcome: { outcome: 'expired', reason: 'manual' } });
    expect(await pendingOf(listing.listing_id)).toEqual([1000]);
  });

  it("a deleted seller's sales end for good: the close never sells them, and a late listing event does not bring them back", async () => {
    const seller = randomUUID();
    const { listing } = await auctionWith([[randomUUID(), 1000]], { seller_id: seller });
    const sold = await auctionWith([[randomUUID(), 1000]], { seller_id: seller });
    await sales.closeDue(sold.listing.listing_id, new Date(Date.now() + DAY + MINUTE));
    await standing.recordMember(seller, 'deleted', new Date());
    expect(await standing.endSellerSales(seller, new Date())).toEqual([listing.listing_id]);
    // listings-service withdraws the listing to draft and says so: the tombstone wins.
    await ds.transaction((manager) => auctions.applyListing({ ...listing, status: 'draft', updated_at: new Date(Date.now() + MINUTE).toISOString() }, manager));
    expect(await sales.closeDue(listing.listing_id, new Date(Date.now() + DAY + MINUTE))).toEqual({ closed: false, expires_at: null });
    expect(await auctions.findAuction(listing.listing_id)).toMatchObject({ status: 'deleted', winning_bid_id: null });
    expect(await pendingOf(listing.listing_id)).toEqual([]);
    expect(await auctions.findAuction(sold.listing.listing_id)).toMatchObject({ status: 'sold' });
    expect(await standing.endSellerSales(seller, new Date())).toEqual([]);
  });
});
