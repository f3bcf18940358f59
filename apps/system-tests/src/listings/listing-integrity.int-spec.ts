import { DataSource } from 'typeorm';
import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Json, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';
import { listingForm } from '../support/images';

const ADMIN = { email: 'integrity-admin@example.com', password: 'integrity-admin-pass-1' };

// The edit form's required fields (SPEC §5) as createLiveListing fills them.
const FORM = {
  title: 'Bird watching blog with a big newsletter',
  description: 'A blog about bird watching with field guides, gear reviews and a weekly newsletter.',
  category: 'Blog',
  website_url: 'https://birds.example.com',
  monthly_revenue: 900,
  annual_revenue: 10800,
  monthly_traffic: 30000,
  profit_margin: 70,
  business_age_months: 40,
  starting_price: 9000,
};

describe('listings that stay what was approved (ADR 0042)', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);
  const edit = async (token: string, id: string, fields: Record<string, string | number>) => {
    const response = await fetch(api(`/listings/${id}`), { method: 'PATCH', headers: bearer(token), body: listingForm(fields) });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const listingRow = async (id: string) =>
    (await stack.service('listings').get(DataSource).query('SELECT status, title, website_url, cancel_reason, approved_at FROM listings WHERE id = $1', [id]))[0];
  const bidOn = async (id: string, token: string, amount: number) => {
    const bid = await post(api('/bids'), { listing_id: id, amount }, bearer(token));
    expect(bid.status).toBe(201);
    // The listing learns of the bid from bid.placed: its count is what locks the reviewed fields.
    await eventually(async () => expect((await get(api(`/listings/${id}`))).body.bid_count).toBeGreaterThan(0), 15_000);
    return bid.body;
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'notifications', 'admin', 'listings', 'bidding'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("sends an approved listing back to review when its seller changes what the review vouched for, and takes no bids meanwhile", async () => {
    const seller = await signUp();
    const bidder = await signUp();
    const listing = await createLiveListing(stack.url, seller.token, adminToken);

    // Texts the review did not vouch for change freely and the listing stays live.
    const free = await edit(seller.token, listing.id, { ...FORM, key_metrics: 'Newsletter open rate 52%' });
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({ status: 'active', key_metrics: 'Newsletter open rate 52%' });

    const moved = await edit(seller.token, listing.id, { ...FORM, website_url: 'https://other-birds.example.com' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ status: 'pending', website_url: 'https://other-birds.example.com' });
    expect((await get(api(`/listings/${listing.id}`))).status).toBe(404);
    // The seller cannot take it live again without a review.
    const reactivate = await call('PATCH', api(`/listings/${listing.id}`), { status: 'active' }, bearer(seller.token));
    expect(reactivate.status).toBe(400);
    expect(reactivate.body.detail).toBe('This listing is waiting for review');
    // Bidding learns the listing is under review from listing.updated; from then on a bid is refused and never stored.
    const bidding = stack.service('bidding').get(DataSource);
    await eventually(async () => {
      const [auction] = await bidding.query('SELECT status FROM auctions WHERE listing_id = $1', [listing.id]);
      expect(auction.status).toBe('pending');
    }, 15_000);
    const refused = await post(api('/bids'), { listing_id: listing.id, amount: 9000 }, bearer(bidder.token));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const [{ bids }] = await bidding.query('SELECT count(*)::int AS bids FROM bids WHERE listing_id = $1', [listing.id]);
    expect(bids).toBe(0);

    // The admin approves the change and the listing is live again.
    const approved = await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken));
    expect(approved.body.status).toBe('active');
  });

  it('locks the reviewed fields once there are bids, for the seller and admins, and lets the rest change', async () => {
    const seller = await signUp();
    const bidder = await signUp();
    const listing = await createLiveListing(stack.url, seller.token, adminToken);
    await bidOn(listing.id, bidder.token, 9000);

    const locked = await edit(seller.token, listing.id, { ...FORM, title: 'Bird blog, now with a podcast', monthly_revenue: 2000 });
    expect(locked.status).toBe(409);
    expect(locked.body.detail).toBe(
      'This listing has bids, so its title, monthly revenue can no longer change (bidders committed to them). Undo that change, or contact support if something is wrong.',
    );
    expect(await listingRow(listing.id)).toMatchObject({ status: 'active', title: FORM.title });
    expect((await edit(adminToken, listing.id, { ...FORM, website_url: 'https://swapped.example.com' })).status).toBe(409);

    const texts = await edit(seller.token, listing.id, { ...FORM, growth_opportunities: 'Launch a paid field guide' });
    expect(texts.status).toBe(200);
    expect(texts.body).toMatchObject({ status: 'active', growth_opportunities: 'Launch a paid field guide' });
  });

  it('refuses to delete a listing with bids; an admin cancels it with a reason, its bids are void and every bidder and the seller are emailed', async () => {
    const seller = await signUp();
    const first = await signUp();
    const second = await signUp();
    const listing = await createLiveListing(stack.url, seller.token, adminToken);
    await bidOn(listing.id, first.token, 9000);
    await bidOn(listing.id, second.token, 9250);

    const sellerDelete = await call('DELETE', api(`/listings/${listing.id}`), undefined, bearer(seller.token));
    expect(sellerDelete).toMatchObject({
      status: 409,
      body: { detail: 'This listing has bids, so it cannot be deleted. You can pause it, or contact support to cancel the sale.' },
    });
    const adminDelete = await call('DELETE', api(`/admin/listings/${listing.id}`), undefined, bearer(adminToken));
    expect(adminDelete.status).toBe(409);
    expect((await get(api(`/listings/${listing.id}`))).status).toBe(200);

    // Only an admin cancels, and only with a reason a person can read.
    expect((await post(api(`/admin/listings/${listing.id}/cancel`), { reason: 'Seller asked to cancel.' }, bearer(seller.token))).status).toBe(403);
    const short = await post(api(`/admin/listings/${listing.id}/cancel`), { reason: 'no' }, bearer(adminToken));
    expect(short.status).toBe(422);
    expect(await listingRow(listing.id)).toMatchObject({ status: 'active', cancel_reason: null });

    const reason = 'The seller could not show that they own the domain.';
    const cancelled = await post(api(`/admin/listings/${listing.id}/cancel`), { reason }, bearer(adminToken));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await post(api(`/admin/listings/${listing.id}/cancel`), { reason }, bearer(adminToken))).status).toBe(409);
    const page = (await get(api(`/listings/${listing.id}`))).body;
    expect(page).toMatchObject({ status: 'cancelled', current_bid: null, bid_count: 0 });

    // Bidding ends the sale for good and voids the bids; no bid gets in afterwards.
    await eventually(async () => {
      const bids = await stack.service('bidding').get(DataSource).query('SELECT status FROM bids WHERE listing_id = $1', [listing.id]);
      expect(bids.map((b: { status: string }) => b.status)).toEqual(['rejected', 'rejected']);
    }, 15_000);
    // Void bids leave the public history.
    expect((await get(api(`/listings/${listing.id}/bids`))).body.bids).toEqual([]);
    const late = await post(api('/bids'), { listing_id: listing.id, amount: 20000 }, bearer(first.token));
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(late.status).toBeLessThan(500);
    // A cancelled listing is final for its seller and admins alike.
    expect((await call('PATCH', api(`/listings/${listing.id}`), { status: 'active' }, bearer(seller.token))).status).toBe(400);
    expect((await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken))).status).toBe(409);

    await eventually(async () => {
      const { body } = await get(api('/admin/emails'), bearer(adminToken));
      const sent = (body.emails as { to_address: string; kind: string; text_body: string }[]).filter((e) => e.kind.startsWith('listing_cancelled'));
      const to = (address: string) => sent.filter((e) => e.to_address === address);
      expect(to(first.email)).toHaveLength(1);
      expect(to(second.email)).toHaveLength(1);
      expect(to(seller.email)).toHaveLength(1);
      expect(to(first.email)[0].text_body).toContain(reason);
    }, 20_000);

    // The audit log holds the act with its reason.
    await eventually(async () => {
      const { body } = await get(api(`/admin/audit?target=${listing.id}&limit=200`), bearer(adminToken));
      const entry = body.entries.find((e: Json) => e.action === 'listing.cancelled');
      expect(entry.after).toMatchObject({ status: 'cancelled', cancel_reason: reason });
    }, 15_000);
  });

  it("keeps a suspended seller's listing in review: approval waits until the account is active again", async () => {
    const seller = await signUp();
    const created = await fetch(api('/listings'), { method: 'POST', headers: bearer(seller.token), body: listingForm(FORM) });
    const listing = (await created.json()) as Json;
    expect(listing.status).toBe('pending');
    const setUser = (status: 'active' | 'suspended') => call('PATCH', api(`/admin/users/${seller.id}`), { status }, bearer(adminToken));
    expect((await setUser('suspended')).status).toBe(200);
    // listings-service learns of the suspension from user.suspended; from then on approval is refused.
    const memberState = async () =>
      (await stack.service('listings').get(DataSource).query('SELECT status FROM member_states WHERE user_id = $1', [seller.id]))[0]?.status;
    await eventually(async () => expect(await memberState()).toBe('suspended'), 15_000);
    const approval = await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken));
    expect(approval).toMatchObject({ status: 409, body: { detail: "This listing's seller is suspended or deleted: approve it once their account is active again." } });
    expect(await listingRow(listing.id)).toMatchObject({ status: 'pending', approved_at: null });

    expect((await setUser('active')).status).toBe(200);
    await eventually(async () => expect(await memberState()).toBe('active'), 15_000);
    const approved = await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken));
    expect(approved).toMatchObject({ status: 200, body: { status: 'active' } });
  });
});
