import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, verifyByResend, postCounted, type Json, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';
import { listingForm } from '../support/images';

const ADMIN = { email: 'commit-admin@example.com', password: 'commit-admin-pass-1' };
const verifyFirst = (act: string) => `Verify your email address to ${act}. We can send the link again from your profile.`;

/** Who may bid, offer, buy now and list (ADR 0037): a verified email while the admin requires it, never a suspended member. */
describe('who may commit to a sale', () => {
  let stack: Stack;
  let adminToken: string;
  let seller: Awaited<ReturnType<typeof registerUser>>;
  const api = (path: string) => `${stack.url}/api${path}`;

  const bid = (token: string, listingId: string, amount: number) => post(api('/bids'), { listing_id: listingId, amount }, bearer(token));
  const buyNow = (token: string, listingId: string) => post(api(`/listings/${listingId}/buy-now`), undefined, bearer(token));
  const createListing = async (token: string, title: string) => {
    const form = listingForm({
      title,
      description: 'A blog about pottery with tutorials, kiln reviews and a weekly newsletter for makers.',
      category: 'Blog',
      website_url: 'https://pottery.example.com',
      monthly_revenue: 700,
      annual_revenue: 8400,
      monthly_traffic: 20000,
      profit_margin: 60,
      business_age_months: 30,
      monetization_methods: 'AdSense',
      starting_price: 6000,
    });
    const response = await fetch(api('/listings'), { method: 'POST', headers: bearer(token), body: form });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const myListings = async (token: string) => (await get(api('/user/listings'), bearer(token))).body.listings as Json[];
  const saveSettings = async (changes: Record<string, unknown>) => {
    const { smtp_password_set: _set, ...settings } = (await get(api('/admin/settings'), bearer(adminToken))).body;
    const saved = await post(api('/admin/settings'), { ...settings, ...changes }, bearer(adminToken));
    expect(saved.status).toBe(200);
  };
  /** An auction, a fixed price for offers and one for buy-now, all live and known to bidding-service. */
  const liveSales = async () => {
    const auction = await createLiveListing(stack.url, seller.token, adminToken, { starting_price: 9000 });
    const fixed = await createLiveListing(stack.url, seller.token, adminToken, { listing_type: 'fixed', starting_price: 4000 });
    const buyable = await createLiveListing(stack.url, seller.token, adminToken, { listing_type: 'fixed', starting_price: 3000 });
    return { auction: auction.id, fixed: fixed.id, buyable: buyable.id };
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding', 'billing'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BUY_NOW_CHECKOUT: 'false' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
    seller = await registerUser(stack.url);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses an unverified member a bid, an offer, a buy-now and a listing, saying what to do; all go through once verified', async () => {
    const sales = await liveSales();
    const member = await registerUser(stack.url, {}, { verified: false });
    expect((await get(api('/fees'))).body).toMatchObject({ verified_email_required: true });

    // bidding-service learns of the auction from listing.approved (or asks listings-service): the answer settles on 403.
    await eventually(async () => expect(await bid(member.token, sales.auction, 9000)).toEqual(expect.objectContaining({ status: 403 })), 15_000);
    expect((await bid(member.token, sales.auction, 9000)).body).toMatchObject({ detail: verifyFirst('bid') });
    expect(await bid(member.token, sales.fixed, 3500)).toMatchObject({ status: 403, body: { detail: verifyFirst('make an offer') } });
    expect(await buyNow(member.token, sales.buyable)).toMatchObject({ status: 403, body: { detail: verifyFirst('buy a website') } });
    expect(await createListing(member.token, 'Pottery blog refused before verification')).toMatchObject({
      status: 403,
      body: { detail: verifyFirst('list a website for sale') },
    });
    // Nothing half-happened: no bid, no sale, no listing.
    expect((await get(api(`/listings/${sales.auction}/bids`))).body.bids).toEqual([]);
    expect((await get(api(`/listings/${sales.buyable}`))).body.status).toBe('active');
    expect(await myListings(member.token)).toEqual([]);

    // The member asks for the link again (as the web offers) and follows it: the same token now commits.
    await verifyByResend(stack.url, member);
    expect((await get(api('/auth/me'), bearer(member.token))).body.email_verified).toBe(true);
    expect((await bid(member.token, sales.auction, 9000)).status).toBe(201);
    expect((await bid(member.token, sales.fixed, 3500)).status).toBe(201);
    expect((await buyNow(member.token, sales.buyable)).status).toBe(201);
    expect((await createListing(member.token, 'Pottery blog listed after verification')).status).toBe(201);
    expect(await myListings(member.token)).toHaveLength(1);
  });

  it("lets an admin confirm a member's email (audited), never unconfirm it", async () => {
    const sales = await liveSales();
    const member = await registerUser(stack.url, {}, { verified: false });
    await eventually(async () => expect((await bid(member.token, sales.auction, 9000)).status).toBe(403), 15_000);
    expect((await call('PATCH', api(`/admin/users/${member.id}`), { email_verified: false }, bearer(adminToken))).status).toBe(422);
    expect((await call('PATCH', api(`/admin/users/${member.id}`), { email_verified: true }, bearer(member.token))).status).toBe(403);
    const confirmed = await call('PATCH', api(`/admin/users/${member.id}`), { email_verified: true }, bearer(adminToken));
    expect(confirmed).toMatchObject({ status: 200, body: { id: member.id, email_verified: true } });
    expect((await bid(member.token, sales.auction, 9000)).status).toBe(201);
    await eventually(async () => {
      const audit = await get(api(`/admin/audit?action=user.email_verified`), bearer(adminToken));
      expect(audit.body.entries).toEqual([expect.objectContaining({ action: 'user.email_verified', target_id: member.id })]);
    }, 15_000);
  });

  it('lets unverified members commit while the admin does not require a verified email, and refuses them again once it does', async () => {
    const sales = await liveSales();
    const member = await registerUser(stack.url, {}, { verified: false });
    await eventually(async () => expect((await bid(member.token, sales.auction, 9000)).status).toBe(403), 15_000);
    await saveSettings({ require_verified_email: false });
    try {
      expect((await get(api('/fees'))).body).toMatchObject({ verified_email_required: false });
      // Services drop their cached settings when admin-service announces the save.
      await eventually(async () => expect((await bid(member.token, sales.auction, 9000)).status).toBe(201), 5_000);
      expect((await bid(member.token, sales.fixed, 3500)).status).toBe(201);
      expect((await createListing(member.token, 'Pottery blog listed with the rule off')).status).toBe(201);
      // A save that does not name the setting (an older client) leaves it as it is.
      const { smtp_password_set: _set, require_verified_email: _kept, ...older } = (await get(api('/admin/settings'), bearer(adminToken))).body;
      expect((await post(api('/admin/settings'), older, bearer(adminToken))).body.require_verified_email).toBe(false);
      expect((await buyNow(member.token, sales.buyable)).status).toBe(201);
    } finally {
      await saveSettings({ require_verified_email: true });
    }
    await eventually(async () => expect((await bid(member.token, sales.auction, 9100)).status).toBe(403), 5_000);
    expect((await get(api('/fees'))).body).toMatchObject({ verified_email_required: true });
  });

  it('refuses a suspended member every one of them, whatever the setting; reactivated, they commit again', async () => {
    const sales = await liveSales();
    const member = await registerUser(stack.url);
    await eventually(async () => expect((await bid(member.token, sales.auction, 9000)).status).toBe(201), 15_000);
    expect((await call('PATCH', api(`/admin/users/${member.id}`), { status: 'suspended' }, bearer(adminToken))).status).toBe(200);

    // The account's current state (ADR 0030) ends its sessions at once in every process.
    for (const refused of [
      await bid(member.token, sales.auction, 9100),
      await bid(member.token, sales.fixed, 3500),
      await buyNow(member.token, sales.buyable),
      await createListing(member.token, 'Pottery blog of a suspended member'),
    ]) {
      expect(refused).toMatchObject({ status: 401, body: { detail: 'Your session has ended. Please log in again.' } });
    }
    expect((await post(api('/auth/login'), { login: member.username, password: member.password })).status).toBe(403);
    // The refused attempts stored nothing, and moderation took back the bid placed before the suspension (ADR 0038):
    // it leaves the public history once bidding has handled user.suspended.
    await eventually(async () => expect((await get(api(`/listings/${sales.auction}/bids`))).body.bids).toEqual([]), 15_000);
    expect((await get(api(`/listings/${sales.buyable}`))).body.status).toBe('active');

    expect((await call('PATCH', api(`/admin/users/${member.id}`), { status: 'active' }, bearer(adminToken))).status).toBe(200);
    const again = await post(api('/auth/login'), { login: member.username, password: member.password });
    expect(again.status).toBe(200);
    expect((await bid(again.body.access_token, sales.auction, 9100)).status).toBe(201);
  });
});
