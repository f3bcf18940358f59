import { DataSource } from 'typeorm';
import { connect } from 'nats';
import { EventConsumers } from '@market/server-kit';
import { eventually } from '@market/server-kit/testing';
import { ListingEventsHandler } from '../../../bidding-service/src/listing-terms/listing-events.handler';
import { bearer, call, post, signUp as registerUser, startStack, postCounted, type Json, type Stack } from '../support/start-stack';
import { listingForm } from '../support/images';

const ADMIN = { email: 'terms-admin@example.com', password: 'terms-admin-pass-1' };
const NOT_ACCEPTING = { detail: 'This auction is not accepting bids' };

/**
 * A bid, offer or buy-now right after an approval, before bidding-service has consumed listing.approved (ADR 0036): its
 * listing consumers are stopped for this file, so the auction terms can only come through listings.sale_terms.
 */
describe('bids on a listing the bidding service has not heard of yet', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);
  const bid = (token: string, listingId: string, amount: number) => post(api('/bids'), { listing_id: listingId, amount }, bearer(token));
  const auctionRow = async (listingId: string) => {
    const [row] = await stack.service('bidding').get(DataSource).query(
      `SELECT status, listing_type, starting_price::int AS starting_price, reserve_price::int AS reserve_price, buy_now_price::int AS buy_now_price
       FROM auctions WHERE listing_id = $1`,
      [listingId],
    );
    return row as Json;
  };

  /** A listing created by its seller, waiting for review. */
  const created = async (sellerToken: string, fields: Record<string, string | number> = {}): Promise<Json> => {
    const form = listingForm({
      title: 'Houseplant care blog with a shop',
      description: 'A blog about caring for houseplants, with guides, a small shop and a weekly newsletter.',
      category: 'Blog',
      website_url: 'https://plants.example.com',
      monthly_revenue: 800,
      annual_revenue: 9600,
      monthly_traffic: 20000,
      profit_margin: 60,
      business_age_months: 24,
      monetization_methods: 'AdSense',
      starting_price: 9000,
      ...fields,
    });
    const response = await fetch(api('/listings'), { method: 'POST', headers: bearer(sellerToken), body: form });
    expect(response.status).toBe(201);
    return response.json();
  };
  const approve = async (id: string) => {
    const approved = await call('PATCH', api(`/admin/listings/${id}`), { status: 'active' }, bearer(adminToken));
    expect(approved.body.status).toBe('active');
  };
  const setStatus = async (id: string, status: string, token: string) => {
    expect((await call('PATCH', api(`/listings/${id}`), { status }, bearer(token))).body.status).toBe(status);
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding', 'billing'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BROWSE_CACHE_MS: '0' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
    // listing.approved, listing.updated and listing.deleted now wait in the stream, undelivered to bidding-service.
    await stack.service('bidding').get(EventConsumers).stop();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('takes a bid, an offer and a buy-now at once after approval, and still answers 404 for what is not live', async () => {
    const [seller, ann, bea, cal] = [await signUp(), await signUp(), await signUp(), await signUp()];

    const auction = await created(seller.token, { reserve_price: 15000 });
    expect(await bid(ann.token, auction.id, 9000)).toMatchObject({ status: 404, body: { detail: 'Listing not found' } });
    await approve(auction.id);
    const first = await bid(ann.token, auction.id, 9000);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ kind: 'bid', current_bid: 9000, bid_count: 1 });
    // The terms came from listings-service, reserve included (the close decides with it, D7).
    expect(await auctionRow(auction.id)).toEqual({ status: 'active', listing_type: 'auction', starting_price: 9000, reserve_price: 15000, buy_now_price: null });

    const fixed = await created(seller.token, { listing_type: 'fixed', starting_price: 8000 });
    await approve(fixed.id);
    const offer = await bid(bea.token, fixed.id, 7000);
    expect(offer.status).toBe(201);
    expect(offer.body.kind).toBe('offer');

    const cheap = await created(seller.token, { listing_type: 'fixed', starting_price: 3000 });
    await approve(cheap.id);
    const bought = await post(api(`/listings/${cheap.id}/buy-now`), undefined, bearer(cal.token));
    expect(bought.status).toBe(201);
    expect((await auctionRow(cheap.id)).status).toBe('sold');

    const paused = await created(seller.token);
    await approve(paused.id);
    await setStatus(paused.id, 'paused', seller.token);
    expect(await bid(ann.token, paused.id, 9000)).toMatchObject({ status: 404, body: { detail: 'Listing not found' } });
    expect(await auctionRow(paused.id)).toBeUndefined();
    expect((await bid(ann.token, '00000000-0000-4000-8000-000000000000', 9000)).status).toBe(404);
  });

  it('applies the listing events that arrive later like any others: older ones are ignored, a newer one wins', async () => {
    const [seller, ann, bob] = [await signUp(), await signUp(), await signUp()];
    const listing = await created(seller.token, { starting_price: 500 });
    // Three versions wait in the stream: approved (active), paused, active again.
    await approve(listing.id);
    await setStatus(listing.id, 'paused', seller.token);
    await setStatus(listing.id, 'active', seller.token);
    expect((await bid(ann.token, listing.id, 500)).status).toBe(201);

    await stack.service('bidding').get(ListingEventsHandler).onApplicationBootstrap();
    const nc = await connect({ servers: stack.env.NATS_URL });
    try {
      const jsm = await nc.jetstreamManager();
      await eventually(async () => {
        const consumers = (await jsm.consumers.list(stack.env.EVENTS_STREAM).next()).filter((c) => c.name.startsWith('bidding-service-listing_'));
        expect(consumers.map((c) => c.name).sort()).toEqual(['bidding-service-listing_approved', 'bidding-service-listing_cancelled', 'bidding-service-listing_deleted', 'bidding-service-listing_updated']);
        for (const consumer of consumers) expect([consumer.name, consumer.num_pending, consumer.num_ack_pending]).toEqual([consumer.name, 0, 0]);
      }, 15_000);
    } finally {
      await nc.close();
    }
    // The approval and the pause are older than the terms already here: the sale is still on.
    expect((await auctionRow(listing.id)).status).toBe('active');
    expect((await bid(bob.token, listing.id, 505)).status).toBe(201);

    // A change made after the terms were learnt arrives as an event and wins.
    await setStatus(listing.id, 'paused', seller.token);
    await eventually(async () => expect((await bid(ann.token, listing.id, 510)).body).toMatchObject(NOT_ACCEPTING), 15_000);
  });
});
