import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, type Json, type Stack } from '../testing/start-stack';
import { listingForm } from '../testing/images';

const ADMIN = { email: 'bids-admin@example.com', password: 'bids-admin-pass-1' };

describe('bids through the gateway', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;

  const signUp = (overrides = {}) => registerUser(stack.url, overrides);

  const liveAuction = async (sellerToken: string, fields: Record<string, string | number> = {}) => {
    const form = listingForm({
      title: 'Bird watching blog with a big newsletter',
      description: 'A blog about bird watching with field guides, gear reviews and a weekly newsletter.',
      category: 'Blog',
      website_url: 'https://birds.example.com',
      monthly_revenue: 900,
      annual_revenue: 10800,
      monthly_traffic: 30000,
      profit_margin: 70,
      business_age_months: 40,
      monetization_methods: 'AdSense',
      starting_price: 9000,
      ...fields,
    });
    const created = await fetch(api('/listings'), { method: 'POST', headers: bearer(sellerToken), body: form });
    const listing = (await created.json()) as Json;
    expect((await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken))).status).toBe(200);
    return listing as { id: string };
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BROWSE_CACHE_MS: '0' },
    });
    adminToken = (await post(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('takes bids by the rules of D6 with their texts, keeps the history and tells the listing its price', async () => {
    const seller = await signUp();
    const [ann, bob] = [await signUp(), await signUp()];
    const listing = await liveAuction(seller.token);
    const bid = (token: string, amount: number) => post(api('/bids'), { listing_id: listing.id, amount }, bearer(token));

    // The bidding service learns of the auction from listing.approved.
    await eventually(async () => expect((await bid(ann.token, 8999)).status).toBe(400), 15_000);
    expect((await bid(ann.token, 8999)).body).toEqual({ detail: 'Bid must be at least $9,000' });
    expect((await bid(seller.token, 9500)).body).toEqual({ detail: 'You cannot bid on your own listing' });
    expect((await bid(ann.token, 9000.5)).status).toBe(422);
    expect((await post(api('/bids'), { listing_id: listing.id, amount: 9000 })).status).toBe(401);

    const first = await bid(ann.token, 9000);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ current_bid: 9000, bid_count: 1, bid: { amount: 9000, bidder_name: ann.username } });
    expect((await bid(bob.token, 9049)).body).toEqual({ detail: 'Bid must be at least $9,050' });
    expect((await bid(bob.token, 9050)).status).toBe(201);

    const history = await get(api(`/listings/${listing.id}/bids`));
    expect(history.body.bids.map((b: { bidder_name: string; amount: number }) => [b.bidder_name, b.amount])).toEqual([
      [bob.username, 9050],
      [ann.username, 9000],
    ]);
    await eventually(async () => {
      expect((await get(api(`/listings/${listing.id}`))).body).toMatchObject({ current_bid: 9050, bid_count: 2 });
    }, 15_000);
    expect((await post(api('/bids'), { listing_id: '00000000-0000-4000-8000-000000000000', amount: 10 }, bearer(ann.token))).status).toBe(404);
  });

  it('refuses bids once the seller pauses the listing', async () => {
    const seller = await signUp();
    const buyer = await signUp();
    const listing = await liveAuction(seller.token, { starting_price: 500 });
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 500 }, bearer(buyer.token))).status).toBe(201), 15_000);
    expect((await call('PATCH', api(`/listings/${listing.id}`), { status: 'paused' }, bearer(seller.token))).status).toBe(200);
    await eventually(async () => {
      expect((await post(api('/bids'), { listing_id: listing.id, amount: 600 }, bearer(buyer.token))).body).toEqual({
        detail: 'This auction is not accepting bids',
      });
    }, 15_000);
  });
});
