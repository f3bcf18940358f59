import { Client } from 'pg';
import type { UserBidRow } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { CloseJobs } from '../../../bidding-service/src/close/close-jobs';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'bids-admin@example.com', password: 'bids-admin-pass-1' };

describe('bids through the gateway', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;

  const signUp = (overrides = {}) => registerUser(stack.url, overrides);

  const liveAuction = (sellerToken: string, fields: Record<string, string | number> = {}) => createLiveListing(stack.url, sellerToken, adminToken, fields);

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BROWSE_CACHE_MS: '0' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
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
    expect((await bid(ann.token, 8999)).body).toMatchObject({ detail: 'Bid must be at least $9,000' });
    expect((await bid(seller.token, 9500)).body).toMatchObject({ detail: 'You cannot bid on your own listing' });
    expect((await bid(ann.token, 9000.5)).status).toBe(422);
    expect((await post(api('/bids'), { listing_id: listing.id, amount: 9000 })).status).toBe(401);

    const first = await bid(ann.token, 9000);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ current_bid: 9000, bid_count: 1, bid: { amount: 9000, bidder_name: ann.username } });
    expect((await bid(bob.token, 9049)).body).toMatchObject({ detail: 'Bid must be at least $9,050' });
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

  it('passes a maximum through to proxy bidding and never shows it to anyone but its owner (ADR 0055)', async () => {
    const seller = await signUp();
    const [ann, bob] = [await signUp(), await signUp()];
    const listing = await liveAuction(seller.token);
    const bid = (token: string, amount: number, max_amount?: number) => post(api('/bids'), { listing_id: listing.id, amount, max_amount }, bearer(token));
    const userBids = async (token: string) => (await get(api('/user/bids'), bearer(token))).body.bids as UserBidRow[];

    await eventually(async () => expect((await bid(ann.token, 9000, 12345)).status).toBe(201), 15_000);
    const invalid = await bid(bob.token, 9100, 9050);
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'max_amount'], msg: 'Your maximum bid must be at least your bid' })]);
    const outbid = await bid(bob.token, 9050);
    expect(outbid.status).toBe(201);
    expect(outbid.body).toMatchObject({ current_bid: 9100, bid_count: 3, leading: false, max_amount: null });
    const shown = [
      (await get(api(`/listings/${listing.id}/bids`))).body,
      (await get(api(`/listings/${listing.id}`), bearer(bob.token))).body,
      await userBids(bob.token),
      await userBids(seller.token),
      (await get(api(`/listings/${listing.id}/my-standing`), bearer(bob.token))).body,
      (await get(api(`/listings/${listing.id}/my-standing`), bearer(seller.token))).body,
    ];
    expect(JSON.stringify(shown)).not.toContain('12345');
    // The bid form's own standing (ADR 0060): each caller's own, the maximum to its owner only; a session is needed.
    const standing = async (token?: string, id: string = listing.id) => get(api(`/listings/${id}/my-standing`), token ? bearer(token) : undefined);
    const annStanding = await standing(ann.token);
    expect([annStanding.status, annStanding.body]).toEqual([200, { listing_id: listing.id, has_bid: true, leading: true, max_amount: 12345, max_passed: false }]);
    expect((await standing(bob.token)).body).toEqual({ listing_id: listing.id, has_bid: true, leading: false, max_amount: null, max_passed: false });
    expect((await standing(seller.token)).body).toEqual({ listing_id: listing.id, has_bid: false, leading: false, max_amount: null, max_passed: false });
    const anonymous = await standing();
    expect([anonymous.status, JSON.stringify(anonymous.body)]).toEqual([401, expect.stringContaining('"detail"')]);
    expect(JSON.stringify(anonymous.body)).not.toContain('12345');
    expect((await standing(ann.token, 'not-a-uuid')).status).toBe(422);
    expect((await userBids(ann.token)).map((r) => [r.amount, r.automatic, r.max_amount])).toEqual([
      [9100, true, 12345],
      [9000, false, 12345],
    ]);
  });

  it('shows the latest 10 public bids on the listing itself, newest first, never offers, and never on browse pages', async () => {
    const seller = await signUp();
    const [ann, bob] = [await signUp(), await signUp()];
    const listing = await liveAuction(seller.token, { starting_price: 100 });
    const fixed = await liveAuction(seller.token, { listing_type: 'fixed', starting_price: 8000 });
    expect((await get(api(`/listings/${listing.id}`))).body.bid_history).toEqual([]);

    for (let i = 0; i < 12; i += 1) {
      const placed = await post(api('/bids'), { listing_id: listing.id, amount: 100 + i * 5 }, bearer(i % 2 ? bob.token : ann.token));
      expect(placed.status).toBe(201);
    }
    expect((await post(api('/bids'), { listing_id: fixed.id, amount: 7000 }, bearer(ann.token))).body.kind).toBe('offer');

    const history = (await get(api(`/listings/${listing.id}/bids`))).body.bids;
    expect(history.map((b: { amount: number }) => b.amount)).toEqual([155, 150, 145, 140, 135, 130, 125, 120, 115, 110]);
    await eventually(async () => {
      const page = (await get(api(`/listings/${listing.id}`), bearer(bob.token))).body;
      expect(page.bid_count).toBe(12);
      expect(page.bid_history).toEqual(history);
    }, 15_000);
    expect(history[0]).toEqual({ id: expect.any(String), bidder_name: bob.username, amount: 155, automatic: false, created_at: expect.any(String) });
    expect((await get(api(`/listings/${fixed.id}`), bearer(seller.token))).body.bid_history).toEqual([]);

    const browse = (await get(api('/listings?limit=100'))).body.listings as Array<Record<string, unknown>>;
    expect(browse.map((l) => l.id)).toContain(listing.id);
    for (const row of browse) expect(row).not.toHaveProperty('bid_history');
  });

  it('refuses bids once the seller pauses the listing', async () => {
    const seller = await signUp();
    const buyer = await signUp();
    const listing = await liveAuction(seller.token, { starting_price: 500 });
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 500 }, bearer(buyer.token))).status).toBe(201), 15_000);
    expect((await call('PATCH', api(`/listings/${listing.id}`), { status: 'paused' }, bearer(seller.token))).status).toBe(200);
    await eventually(async () => {
      expect((await post(api('/bids'), { listing_id: listing.id, amount: 600 }, bearer(buyer.token))).body).toMatchObject({
        detail: 'This auction is not accepting bids',
      });
    }, 15_000);
  });

  const userBids = async (token: string) => (await get(api('/user/bids'), bearer(token))).body.bids as UserBidRow[];
  const action = (bidId: string, body: unknown, token?: string) => post(api(`/bids/${bidId}/action`), body, token ? bearer(token) : {});

  it('lets the seller accept a bid from My Bids: the listing is sold, the other bids rejected, and each side sees it', async () => {
    const seller = await signUp();
    const [ann, bob] = [await signUp(), await signUp()];
    const listing = await liveAuction(seller.token, { starting_price: 500, auction_type: 'manual' });
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 500 }, bearer(ann.token))).status).toBe(201), 15_000);
    expect((await post(api('/bids'), { listing_id: listing.id, amount: 505 }, bearer(bob.token))).status).toBe(201);

    const sellerRows = await userBids(seller.token);
    expect(sellerRows.map((r) => [r.role, r.bidder_username, r.amount, r.status])).toEqual([
      ['seller', bob.username, 505, 'pending'],
      ['seller', ann.username, 500, 'pending'],
    ]);
    const annBefore = await userBids(ann.token);
    expect(annBefore).toEqual([expect.objectContaining({ role: 'buyer', listing_id: listing.id, is_winning: false, status: 'pending', current_bid: 505 })]);
    expect((await userBids(bob.token))[0]).toMatchObject({ is_winning: true, listing_title: 'Bird watching blog with a big newsletter' });

    const annBid = annBefore[0].id;
    expect((await action(annBid, { action: 'accept' }, bob.token)).status).toBe(403);
    expect((await action(annBid, { action: 'sell' }, seller.token)).status).toBe(422);
    expect((await action(annBid, { action: 'accept' })).status).toBe(401);
    expect((await action('00000000-0000-4000-8000-000000000000', { action: 'accept' }, seller.token)).status).toBe(404);
    expect((await action('not-a-uuid', { action: 'accept' }, seller.token)).status).toBe(422);

    const accepted = await action(annBid, { action: 'accept' }, seller.token);
    expect(accepted.status).toBe(201);
    expect(accepted.body).toEqual({ success: true, message: 'Bid accepted: the listing is sold', bid: { id: annBid, status: 'accepted' } });
    expect((await action(annBid, { action: 'reject' }, seller.token)).body).toMatchObject({ detail: 'This bid has already been accepted' });
    expect((await userBids(bob.token))[0]).toMatchObject({ status: 'rejected', is_winning: false });
    expect((await userBids(ann.token))[0]).toMatchObject({ status: 'accepted', is_winning: true });
    // The listing shows the price it sold at, below the higher bid the seller passed over.
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body).toMatchObject({ status: 'sold', current_bid: 500 }), 15_000);
    expect((await post(api('/bids'), { listing_id: listing.id, amount: 600 }, bearer(bob.token))).body).toMatchObject({ detail: 'This auction is not accepting bids' });
    expect((await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken))).body).toMatchObject({
      detail: 'This listing has been sold; a sale is final',
    });
  });

  it('takes private offers on fixed-price listings; the seller may reject them', async () => {
    const seller = await signUp();
    const buyer = await signUp();
    const listing = await liveAuction(seller.token, { listing_type: 'fixed', starting_price: 12000 });
    const offer = (amount: number) => post(api('/bids'), { listing_id: listing.id, amount }, bearer(buyer.token));
    await eventually(async () => expect((await offer(12001)).body).toMatchObject({ detail: 'Offer cannot be above the asking price of $12,000' }), 15_000);
    const made = await offer(10000);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'offer', message: 'Offer sent to the seller', bid: { amount: 10000, bidder_name: buyer.username } });
    expect((await get(api(`/listings/${listing.id}/bids`))).body).toEqual({ bids: [] });
    const [row] = await userBids(seller.token);
    expect(row).toMatchObject({ role: 'seller', kind: 'offer', amount: 10000, bidder_username: buyer.username, status: 'pending' });
    expect((await action(row.id, { action: 'reject' }, seller.token)).body).toMatchObject({ success: true, bid: { status: 'rejected' } });
    expect((await userBids(buyer.token))[0]).toMatchObject({ status: 'rejected', kind: 'offer' });
    expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('active');
  });

  it('closes an auction by itself at its end: the highest bid wins and the listing is sold', async () => {
    const seller = await signUp();
    const [ann, bob] = [await signUp(), await signUp()];
    const listing = await liveAuction(seller.token, { starting_price: 500 });
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 500 }, bearer(ann.token))).status).toBe(201), 15_000);
    expect((await post(api('/bids'), { listing_id: listing.id, amount: 505 }, bearer(bob.token))).status).toBe(201);
    // Bring the end close, as time would, and let the close job do the rest.
    const db = new Client({ connectionString: stack.db.url });
    await db.connect();
    const [{ ends }] = (await db.query(`UPDATE bidding.auctions SET expires_at = now() + interval '1 second' WHERE listing_id = $1 RETURNING expires_at AS ends`, [listing.id])).rows;
    await db.end();
    await stack.service('bidding').get(CloseJobs).schedule(listing.id, ends);
    await eventually(async () => {
      expect((await userBids(bob.token))[0]).toMatchObject({ status: 'accepted', is_winning: true });
      expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('sold');
    }, 15_000);
    expect((await userBids(ann.token))[0]).toMatchObject({ status: 'rejected' });
  });

  it('moves the end by the admin soft-close setting (D9); a client that leaves it out keeps it', async () => {
    const settings = (await get(api('/admin/settings'), bearer(adminToken))).body;
    const { smtp_password_set: _set, anti_sniping_minutes: _minutes, ...rest } = settings;
    expect((await post(api('/admin/settings'), { ...rest, anti_sniping_minutes: 30 }, bearer(adminToken))).body.anti_sniping_minutes).toBe(30);
    expect((await post(api('/admin/settings'), { ...rest, anti_sniping_minutes: 61 }, bearer(adminToken))).status).toBe(422);
    expect((await post(api('/admin/settings'), rest, bearer(adminToken))).body.anti_sniping_minutes).toBe(30);

    const seller = await signUp();
    const buyer = await signUp();
    const listing = await liveAuction(seller.token, { starting_price: 500 });
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 1 }, bearer(buyer.token))).status).toBe(400), 15_000);
    const db = new Client({ connectionString: stack.db.url });
    await db.connect();
    await db.query(`UPDATE bidding.auctions SET expires_at = now() + interval '20 minutes' WHERE listing_id = $1`, [listing.id]);
    await db.end();
    const placed = await post(api('/bids'), { listing_id: listing.id, amount: 500 }, bearer(buyer.token));
    expect(placed.body.extended).toBe(true);
    const moved = new Date(placed.body.expires_at).getTime() - Date.now();
    expect(moved).toBeGreaterThan(29 * 60_000);
    expect(moved).toBeLessThanOrEqual(30 * 60_000);
    await post(api('/admin/settings'), { ...rest, anti_sniping_minutes: 10 }, bearer(adminToken));
  });

  it('brings an expired auction back only as a new period, which the bidding service reopens', async () => {
    const seller = await signUp();
    const buyer = await signUp();
    const listing = await liveAuction(seller.token, { starting_price: 500 });
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 1 }, bearer(buyer.token))).status).toBe(400), 15_000);
    const db = new Client({ connectionString: stack.db.url });
    await db.connect();
    await db.query(`UPDATE bidding.auctions SET expires_at = now() WHERE listing_id = $1`, [listing.id]);
    await db.end();
    await stack.service('bidding').get(CloseJobs).sweep();
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('expired'), 15_000);
    expect((await post(api('/bids'), { listing_id: listing.id, amount: 500 }, bearer(buyer.token))).body).toMatchObject({ detail: 'This auction is not accepting bids' });

    expect((await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken))).status).toBe(200);
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 500 }, bearer(buyer.token))).status).toBe(201), 15_000);
  });
});
