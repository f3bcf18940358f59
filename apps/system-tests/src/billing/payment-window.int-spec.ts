import { Client } from 'pg';
import type { InvoiceDto } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { PaymentWindowSweep } from '../../../billing-service/src/invoices/payment-window.sweep';
import { bearer, get, post, signUp as registerUser, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'window-admin@example.com', password: 'window-admin-pass-1' };

describe('a buy-now nobody pays for lapses and the listing goes back on sale, over NATS (ADR 0043)', () => {
  let stack: Stack;
  let db: Client;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);
  const buyNow = (listingId: string, token: string) => post(api(`/listings/${listingId}/buy-now`), undefined, bearer(token));
  const invoicesOf = async (token: string) => (await get(api('/invoices'), bearer(token))).body.invoices as InvoiceDto[];
  const browseIds = async () => (await get(api('/listings?limit=100'))).body.listings.map((l: { id: string }) => l.id) as string[];

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding', 'billing'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BROWSE_CACHE_MS: '0' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
    db = new Client({ connectionString: stack.db.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it('buy-now, the window passes unpaid, the sweep lapses it: the invoice is cancelled, the listing is in browse again, the buyer struck once', async () => {
    const [seller, buyer, next] = [await signUp(), await signUp(), await signUp()];
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { listing_type: 'fixed', starting_price: 3000 });
    await eventually(async () => expect((await buyNow(listing.id, seller.token)).body).toMatchObject({ detail: 'You cannot buy your own listing' }), 15_000);

    const bought = await buyNow(listing.id, buyer.token);
    expect(bought.status).toBe(201);
    const invoiceId: string = bought.body.invoice.id;
    const [invoice] = await invoicesOf(buyer.token);
    expect(invoice.status).toBe('pending');
    expect(new Date(invoice.pay_by as string).getTime() - new Date(invoice.created_at).getTime()).toBe(48 * 3600_000);
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('sold'), 15_000);
    expect(await browseIds()).not.toContain(listing.id);

    // Not before its window ends.
    const sweep = stack.service('billing').get(PaymentWindowSweep);
    await sweep.sweep(new Date());
    expect((await invoicesOf(buyer.token))[0].status).toBe('pending');

    await db.query(`UPDATE billing.invoices SET pay_by = now() - interval '1 minute' WHERE id = $1`, [invoiceId]);
    expect(await sweep.sweep(new Date())).toBe(1);
    expect((await invoicesOf(buyer.token))[0]).toMatchObject({ id: invoiceId, status: 'cancelled', can_pay: false });

    // bidding unwinds the sale from sale.lapsed, listings puts the listing back from sale.unwound.
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('active'), 20_000);
    expect(await browseIds()).toContain(listing.id);
    const strikes = await db.query('SELECT invoice_id FROM bidding.buyer_strikes WHERE buyer_id = $1', [buyer.id]);
    expect(strikes.rows).toEqual([{ invoice_id: invoiceId }]);
    const rejected = await db.query('SELECT status, rejection FROM bidding.bids WHERE listing_id = $1', [listing.id]);
    expect(rejected.rows).toEqual([{ status: 'rejected', rejection: 'lapsed' }]);
    // A payment of the lapsed invoice is refused.
    expect((await post(api(`/invoices/${invoiceId}/create-payment`), {}, bearer(buyer.token))).body).toMatchObject({ detail: 'This sale was cancelled, so it can no longer be paid.' });

    // Someone else buys it now, and that sale stands.
    const second = await buyNow(listing.id, next.token);
    expect(second.status).toBe(201);
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('sold'), 15_000);
    expect((await invoicesOf(next.token))[0]).toMatchObject({ listing_id: listing.id, status: 'pending' });
  });

  it('a second unpaid purchase within 90 days puts the buyer\'s buying on hold until an admin lifts it, audited', async () => {
    const [seller, buyer] = [await signUp(), await signUp()];
    const lapseOne = async () => {
      const listing = await createLiveListing(stack.url, seller.token, adminToken, { listing_type: 'fixed', starting_price: 1500 });
      await eventually(async () => expect((await buyNow(listing.id, seller.token)).body).toMatchObject({ detail: 'You cannot buy your own listing' }), 15_000);
      const bought = await buyNow(listing.id, buyer.token);
      expect(bought.status).toBe(201);
      await db.query(`UPDATE billing.invoices SET pay_by = now() - interval '1 minute' WHERE id = $1`, [bought.body.invoice.id]);
      await stack.service('billing').get(PaymentWindowSweep).sweep(new Date());
      await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('active'), 20_000);
      return listing;
    };
    await lapseOne();
    const listing = await lapseOne();
    const held = { detail: 'Your buying is on hold after two unpaid purchases. Contact support to lift it.' };
    const refused = await buyNow(listing.id, buyer.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject(held);
    const bid = await post(api('/bids'), { listing_id: listing.id, amount: 1000 }, bearer(buyer.token));
    expect(bid.status).toBe(403);
    expect(bid.body).toMatchObject(held);

    const holds = await get(api('/admin/buying-holds'), bearer(adminToken));
    expect(holds.body.holds).toEqual([{ user_id: buyer.id, strikes: 2, last_struck_at: expect.any(String) }]);
    expect((await get(api('/admin/buying-holds'), bearer(buyer.token))).status).toBe(403);
    const path = api(`/admin/users/${buyer.id}/lift-buying-hold`);
    expect((await post(path, {}, bearer(buyer.token))).status).toBe(403);
    const lifted = await post(path, {}, bearer(adminToken));
    expect(lifted.status).toBe(200);
    expect(lifted.body).toEqual({ user_id: buyer.id, on_hold: false, strikes: 0, lifted: 2 });
    expect((await post(path, {}, bearer(adminToken))).body).toEqual({ user_id: buyer.id, on_hold: false, strikes: 0, lifted: 0 });
    expect((await get(api('/admin/buying-holds'), bearer(adminToken))).body).toEqual({ holds: [] });
    await eventually(async () => {
      const { rows } = await db.query(`SELECT action, target_id FROM admin.audit_log WHERE action = 'user.buying_hold_lifted'`);
      expect(rows).toEqual([{ action: 'user.buying_hold_lifted', target_id: buyer.id }]);
    }, 15_000);
    expect((await buyNow(listing.id, buyer.token)).status).toBe(201);
  });

  it('an admin cancels an unpaid sale with a reason: unwound the same way, no strike unless asked, audited; a paid-for or cancelled one is refused', async () => {
    const [seller, buyer] = [await signUp(), await signUp()];
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { listing_type: 'fixed', starting_price: 2500 });
    await eventually(async () => expect((await buyNow(listing.id, seller.token)).body).toMatchObject({ detail: 'You cannot buy your own listing' }), 15_000);
    const invoiceId: string = (await buyNow(listing.id, buyer.token)).body.invoice.id;
    const cancel = (body: unknown, token = adminToken) => post(api(`/admin/invoices/${invoiceId}/cancel`), body, bearer(token));

    expect((await cancel({ reason: 'Buyer asked to withdraw' }, buyer.token)).status).toBe(403);
    expect((await cancel({ reason: 'too short' })).status).toBe(422);
    expect((await invoicesOf(buyer.token))[0].status).toBe('pending');

    const done = await cancel({ reason: 'The buyer asked to withdraw before paying' });
    expect(done.status).toBe(200);
    expect(done.body.invoice).toMatchObject({ id: invoiceId, status: 'cancelled' });
    expect((await cancel({ reason: 'The buyer asked to withdraw before paying' })).body).toMatchObject({ detail: 'This sale is already cancelled.' });
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('active'), 20_000);
    expect((await db.query('SELECT 1 FROM bidding.buyer_strikes WHERE buyer_id = $1', [buyer.id])).rows).toEqual([]);
    expect((await db.query('SELECT rejection FROM bidding.bids WHERE listing_id = $1', [listing.id])).rows).toEqual([{ rejection: 'sale_cancelled' }]);
    await eventually(async () => {
      const { rows } = await db.query(`SELECT target_id FROM admin.audit_log WHERE action = 'invoice.sale_cancelled'`);
      expect(rows).toEqual([{ target_id: invoiceId }]);
    }, 15_000);
    expect((await post(api('/admin/invoices/00000000-0000-4000-8000-000000000000/cancel'), { reason: 'No such invoice here at all' }, bearer(adminToken))).status).toBe(404);
  });

  it("a suspended buyer's unpaid purchase is cancelled at once, without a strike, and the listing goes back on sale (ADR 0038, 0043)", async () => {
    const [seller, buyer] = [await signUp(), await signUp()];
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { listing_type: 'fixed', starting_price: 2500 });
    await eventually(async () => expect((await buyNow(listing.id, seller.token)).body).toMatchObject({ detail: 'You cannot buy your own listing' }), 15_000);
    const bought = await buyNow(listing.id, buyer.token);
    expect(bought.status).toBe(201);
    const invoiceId: string = bought.body.invoice.id;
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('sold'), 15_000);

    const setUser = (status: 'active' | 'suspended') =>
      fetch(api(`/admin/users/${buyer.id}`), { method: 'PATCH', headers: { ...bearer(adminToken), 'content-type': 'application/json' }, body: JSON.stringify({ status }) });
    expect((await setUser('suspended')).status).toBe(200);

    // billing learns of the suspension from user.suspended and cancels the purchase; bidding unwinds it.
    await eventually(async () => {
      const { rows } = await db.query('SELECT status, cancel_reason, cancel_note FROM billing.invoices WHERE id = $1', [invoiceId]);
      expect(rows[0]).toMatchObject({ status: 'cancelled', cancel_reason: 'admin_cancelled' });
      expect(rows[0].cancel_note).toContain('suspended or closed');
    }, 20_000);
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('active'), 20_000);
    expect(await browseIds()).toContain(listing.id);
    const strikes = await db.query('SELECT invoice_id FROM bidding.buyer_strikes WHERE buyer_id = $1', [buyer.id]);
    expect(strikes.rows).toEqual([]);
  });
});
