import { randomUUID } from 'node:crypto';
import type { MySaleReviews, SellerPageDto } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, postCounted, signUp as registerUser, startStack, type Stack } from '../support/start-stack';
import { paidSale as paidSaleAt } from '../support/sales';

const ADMIN = { email: 'reviews-admin@example.com', password: 'reviews-admin-pass-1' };

/**
 * Reviews from completed deals and seller pages through the gateway, with billing paying the sale out (D22, D23,
 * ADR 0083): only a sale whose money reached the seller opens its reviews, the rating shows on the listing's seller
 * card and the seller page, and a suspended seller's page says only that the account is not active.
 */
describe('reviews of sales paid out and seller pages through the gateway', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;

  /** A sale paid for, its transfer verified by an admin and its payout sent to an onboarded seller. */
  const paidOut = async () => {
    const sale = await paidSaleAt(stack.url, adminToken, 1500);
    const { body } = await post(api('/user/payout-account/onboarding'), undefined, bearer(sale.seller.token));
    await post(api(`/sandbox/payout-onboarding/${new URL(body.url).pathname.split('/').pop()}/complete`), {}, bearer(sale.seller.token));
    await post(api(`/invoices/${sale.invoiceId}/transfer-started`), undefined, bearer(sale.seller.token));
    const released = await post(api(`/admin/payment-intents/${sale.intentId}/capture`), { amount_to_capture: null, reason: 'Domain transfer verified by admin' }, bearer(adminToken));
    expect(released.status).toBe(200);
    return sale;
  };
  const mine = async (token: string) => (await get(api('/user/reviews'), bearer(token))).body as MySaleReviews;

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding', 'billing', 'notifications'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BROWSE_CACHE_MS: '0' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('opens reviews only once the money reached the seller; both review, and the rating shows everywhere', async () => {
    const held = await paidSaleAt(stack.url, adminToken, 900);
    // Paid but held in escrow: not a completed sale, so not reviewable (the same 404 as a stranger's).
    const early = await post(api('/reviews'), { invoice_id: held.invoiceId, stars: 5, text: 'Great seller, smooth deal.' }, bearer(held.buyer.token));
    expect(early).toMatchObject({ status: 404, body: { detail: 'Sale not found' } });

    const sale = await paidOut();
    await eventually(async () => expect((await mine(sale.buyer.token)).sales).toEqual([expect.objectContaining({ invoice_id: sale.invoiceId, can_review: true })]), 20_000);
    const stranger = await registerUser(stack.url);
    expect((await post(api('/reviews'), { invoice_id: sale.invoiceId, stars: 1, text: 'Never dealt with them.' }, bearer(stranger.token))).status).toBe(404);
    const badInput = await post(api('/reviews'), { invoice_id: sale.invoiceId, stars: 6, text: 'short' }, bearer(sale.buyer.token));
    expect(badInput.status).toBe(422);

    const keyed = { ...bearer(sale.buyer.token), 'Idempotency-Key': randomUUID() };
    const review = { invoice_id: sale.invoiceId, stars: 4, text: '<b>Solid</b> handover, answered every question.' };
    const byBuyer = await post(api('/reviews'), review, keyed);
    expect(byBuyer).toMatchObject({ status: 201, body: { stars: 4, text: '<b>Solid</b> handover, answered every question.', author: { username: sale.buyer.username } } });
    // A retried send (the answer was lost) answers the first result instead of a 409.
    expect(await post(api('/reviews'), review, keyed)).toMatchObject({ status: 201, body: { id: byBuyer.body.id } });
    expect((await post(api('/reviews'), { invoice_id: sale.invoiceId, stars: 5, text: 'Changed my mind, five.' }, bearer(sale.buyer.token))).status).toBe(409);
    // Not visible until the seller writes theirs.
    const page = async () => (await get(api(`/sellers/${sale.seller.username}`))).body as SellerPageDto;
    expect((await page()).seller).toMatchObject({ rating: null, review_count: 0, total_transactions: 1 });
    expect((await post(api('/reviews'), { invoice_id: sale.invoiceId, stars: 5, text: 'Paid at once, easy buyer.' }, bearer(sale.seller.token))).status).toBe(201);

    const shown = await page();
    expect(shown.seller).toMatchObject({ username: sale.seller.username, rating: 4, review_count: 1, total_transactions: 1, member_since: expect.any(String) });
    expect(shown.reviews).toEqual([expect.objectContaining({ id: byBuyer.body.id, stars: 4, author_role: 'buyer' })]);
    expect(shown).toMatchObject({ page: 1, pages: 1, listing_count: 0 });
    const listing = (await get(api(`/listings/${sale.listingId}`))).body;
    expect(listing.seller).toMatchObject({ rating: 4, review_count: 1, total_transactions: 1 });

    // The seller replies once; the admin hides the review, and the rating goes with it.
    const replied = await post(api(`/reviews/${byBuyer.body.id}/reply`), { text: 'Thank you, enjoy the site!' }, bearer(sale.seller.token));
    expect(replied).toMatchObject({ status: 200, body: { reply: { text: 'Thank you, enjoy the site!' } } });
    expect((await post(api(`/admin/reviews/${byBuyer.body.id}/hide`), { reason: 'Testing the hide path.' }, bearer(sale.buyer.token))).status).toBe(403);
    expect((await post(api(`/admin/reviews/${byBuyer.body.id}/hide`), { reason: 'short' }, bearer(adminToken))).status).toBe(422);
    expect((await post(api(`/admin/reviews/${byBuyer.body.id}/hide`), { reason: 'Breaks the rules on contact details.' }, bearer(adminToken))).status).toBe(200);
    expect((await page())).toMatchObject({ seller: { rating: null, review_count: 0 }, reviews: [] });
    await eventually(async () => {
      const audit = await get(api('/admin/audit?action=review.hidden'), bearer(adminToken));
      expect(audit.body.entries).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'review.hidden', target_id: byBuyer.body.id })]));
    }, 20_000);
  });

  it('answers one 404 for an unknown or suspended seller, and refuses junk', async () => {
    const seller = await registerUser(stack.url);
    expect((await get(api(`/sellers/${seller.username}`))).status).toBe(200);
    expect((await get(api(`/sellers/${seller.username}?page=abc`))).status).toBe(422);
    expect(await get(api(`/sellers/no-such-${randomUUID().slice(0, 8)}`))).toMatchObject({ status: 404, body: { detail: 'This account is not active.' } });
    expect((await call('PATCH', api(`/admin/users/${seller.id}`), { status: 'suspended' }, bearer(adminToken))).status).toBe(200);
    expect(await get(api(`/sellers/${seller.username}`))).toMatchObject({ status: 404, body: { detail: 'This account is not active.' } });
    expect((await post(api('/reviews'), { invoice_id: 'not-a-uuid', stars: 3, text: 'Some words here.' }, bearer(adminToken))).status).toBe(422);
  });
});
