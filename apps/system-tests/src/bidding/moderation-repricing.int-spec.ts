import { Client } from 'pg';
import { WebSocket } from 'ws';
import { liveListingPath, type LiveMessage } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { CloseJobs } from '../../../bidding-service/src/close/close-jobs';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'moderation-admin@example.com', password: 'moderation-admin-pass-1' };

/**
 * ADR 0038 end to end over real NATS: a seller's rejection of the leading bid reaches listings and live viewers, and an
 * admin's suspension, reactivation or deletion in auth-service reaches bidding and listings.
 */
describe('repricing and moderation across services', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);
  const liveAuction = (sellerToken: string, fields: Record<string, string | number> = {}) => createLiveListing(stack.url, sellerToken, adminToken, fields);
  const bid = (token: string, listingId: string, amount: number) => post(api('/bids'), { listing_id: listingId, amount }, bearer(token));
  /** The listing as the admin sees it (any status). */
  const asAdmin = async (listingId: string) => (await get(api(`/listings/${listingId}`), bearer(adminToken))).body;
  const setUser = (id: string, status: 'active' | 'suspended') => call('PATCH', api(`/admin/users/${id}`), { status }, bearer(adminToken));
  /** Waits until bidding has heard of the listing (a bid under the start is refused for its amount). */
  const known = (token: string, listingId: string) =>
    eventually(async () => expect((await bid(token, listingId, 1)).body.detail).toMatch(/at least/), 30_000);

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

  it("a seller's rejection of the leading bid shows the next bid on the listing and to live viewers at once", async () => {
    const seller = await signUp();
    const [ann, bob] = [await signUp(), await signUp()];
    const listing = await liveAuction(seller.token, { starting_price: 9000, reserve_price: 9050 });
    await known(ann.token, listing.id);
    expect((await bid(ann.token, listing.id, 9000)).status).toBe(201);
    const leading = await bid(bob.token, listing.id, 9050);
    expect(leading.body).toMatchObject({ current_bid: 9050, bid_count: 2, price_version: 2 });

    const frames: LiveMessage[] = [];
    const ws = new WebSocket(stack.url.replace(/^http/, 'ws') + liveListingPath(listing.id));
    ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as LiveMessage));
    await new Promise<void>((resolve) => ws.once('open', () => resolve()));
    try {
      const rejected = await post(api(`/bids/${leading.body.bid.id}/action`), { action: 'reject' }, bearer(seller.token));
      expect(rejected.status).toBe(201);
      await eventually(() =>
        expect(frames).toContainEqual({ type: 'bids_repriced', data: { listing_id: listing.id, current_bid: 9000, bid_count: 1, reserve_met: false, price_version: 3 } }),
      );
    } finally {
      ws.close();
    }
    await eventually(async () => {
      expect((await get(api(`/listings/${listing.id}`))).body).toMatchObject({ current_bid: 9000, bid_count: 1, reserve_met: false, price_version: 3 });
    }, 30_000);
    // The history the page shows agrees: the rejected bid has left it.
    expect((await get(api(`/listings/${listing.id}/bids`))).body.bids.map((b: { amount: number }) => b.amount)).toEqual([9000]);
    // The next bid is judged against the price as it now stands.
    expect((await bid(bob.token, listing.id, 9050)).body).toMatchObject({ current_bid: 9050, bid_count: 2, price_version: 4 });
  });

  it("a suspension (auth -> bidding -> listings) takes back the member's bids and pauses their listings; a reactivation restores only those", async () => {
    const [seller, other, member] = [await signUp(), await signUp(), await signUp()];
    const leads = await liveAuction(seller.token, { starting_price: 9000 });
    const trails = await liveAuction(seller.token, { starting_price: 9000 });
    const sells = await liveAuction(member.token, { starting_price: 5000 });
    const ownPause = await liveAuction(member.token, { starting_price: 5000 });
    await Promise.all([known(other.token, leads.id), known(other.token, trails.id), known(other.token, sells.id)]);
    expect((await call('PATCH', api(`/listings/${ownPause.id}`), { status: 'paused' }, bearer(member.token))).status).toBe(200);
    for (const [token, listing, amount] of [
      [other.token, leads.id, 9000],
      [member.token, leads.id, 9050],
      [member.token, trails.id, 9000],
      [other.token, trails.id, 9050],
    ] as const) {
      expect((await bid(token, listing, amount)).status).toBe(201);
    }

    expect((await setUser(member.id, 'suspended')).status).toBe(200);
    await eventually(async () => {
      expect((await get(api(`/listings/${leads.id}`))).body).toMatchObject({ current_bid: 9000, bid_count: 1 });
      expect((await get(api(`/listings/${trails.id}`))).body).toMatchObject({ current_bid: 9050, bid_count: 1 });
      expect((await asAdmin(sells.id)).status).toBe('paused');
    }, 30_000);
    // Hidden from the public and from browse; bidding refuses bids once listing.updated told it.
    expect((await get(api(`/listings/${sells.id}`))).status).toBe(404);
    const browse = (await get(api('/listings?limit=100'))).body.listings.map((l: { id: string }) => l.id);
    expect(browse).not.toContain(sells.id);
    expect(browse).toContain(leads.id);
    // Probed with an amount no live auction takes, so a probe that comes before bidding heard of the pause places nothing.
    await eventually(async () => expect((await bid(other.token, sells.id, 1)).body).toMatchObject({ detail: 'This auction is not accepting bids' }), 30_000);

    expect((await setUser(member.id, 'active')).status).toBe(200);
    await eventually(async () => expect((await get(api(`/listings/${sells.id}`))).body.status).toBe('active'), 30_000);
    expect((await asAdmin(ownPause.id)).status).toBe('paused');
    await eventually(async () => expect((await bid(other.token, sells.id, 5000)).status).toBe(201), 30_000);
    // Reactivated, the member may bid again (with a new session: the suspension ended the old ones); the rejected bids stay rejected.
    const again = (await post(api('/auth/login'), { login: member.username, password: member.password })).body.access_token as string;
    await eventually(async () => expect((await bid(again, leads.id, 9050)).body).toMatchObject({ current_bid: 9050, bid_count: 2 }), 30_000);
  });

  it("a deleted seller's withdrawn auction never closes as sold", async () => {
    const [seller, buyer] = [await signUp(), await signUp()];
    const listing = await liveAuction(seller.token, { starting_price: 500 });
    await known(buyer.token, listing.id);
    expect((await bid(buyer.token, listing.id, 500)).status).toBe(201);
    expect((await call('DELETE', api(`/admin/users/${seller.id}`), undefined, bearer(adminToken))).status).toBe(200);
    await eventually(async () => expect((await asAdmin(listing.id)).status).toBe('draft'), 30_000);
    await eventually(async () => expect((await bid(buyer.token, listing.id, 1)).body).toMatchObject({ detail: 'This auction is not accepting bids' }), 30_000);

    // Its end comes, as time would bring it: the close job finds nothing to sell.
    const db = new Client({ connectionString: stack.db.url });
    await db.connect();
    try {
      // bidding-service has heard user.deleted (not only the draft's listing.updated) once the sale is its tombstone.
      await eventually(async () => expect((await db.query(`SELECT status FROM bidding.auctions WHERE listing_id = $1`, [listing.id])).rows).toEqual([{ status: 'deleted' }]), 30_000);
      await db.query(`UPDATE bidding.auctions SET expires_at = now() - interval '1 second' WHERE listing_id = $1`, [listing.id]);
      await stack.service('bidding').get(CloseJobs).sweep();
      const { rows } = await db.query(`SELECT a.status, a.winning_bid_id, b.status AS bid FROM bidding.auctions a JOIN bidding.bids b USING (listing_id) WHERE listing_id = $1`, [listing.id]);
      expect(rows).toEqual([{ status: 'deleted', winning_bid_id: null, bid: 'rejected' }]);
    } finally {
      await db.end();
    }
    expect((await asAdmin(listing.id)).status).toBe('draft');
  });
});
