import type { AdminPaymentIntentDto, InvoiceDto } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { bearer, get, post, signUp as registerUser, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';
import { buyNow } from '../support/sales';
import { HoldExpirySweep } from '../../../billing-service/src/payments/hold-expiry.sweep';

const ADMIN = { email: 'payments-admin@example.com', password: 'payments-admin-pass-1' };
const IN_PROGRESS = 'A payment for this invoice is already in progress. You can complete the existing payment below.';
const DAY = 24 * 3600_000;
const card = (number: string, client_secret: string) => ({ client_secret, card_number: number, exp_month: 12, exp_year: 2099, cvc: '123' });

describe('card payments through the gateway (sandbox provider)', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);

  /** A buyer's invoice for a fresh fixed-price listing, made by buy-now. */
  const boughtInvoice = async () => {
    const [seller, buyer] = [await signUp(), await signUp()];
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { listing_type: 'fixed', starting_price: 3000 });
    return { seller, buyer, invoiceId: await buyNow(stack.url, listing.id, buyer.token) };
  };
  const invoiceStatus = async (id: string, token: string) => ((await get(api(`/invoices/${id}`), bearer(token))).body as InvoiceDto).status;
  const createPayment = (invoiceId: string, token: string) =>
    post(api(`/invoices/${invoiceId}/create-payment`), { invoice_id: invoiceId, return_url: 'https://market.example/dashboard' }, bearer(token));
  const confirm = (intentId: string, body: object, token: string) => post(api(`/sandbox/payment-intents/${intentId}/confirm`), body, bearer(token));
  const adminRow = async (intentId: string) =>
    ((await get(api('/admin/payment-intents'), bearer(adminToken))).body.payment_intents as AdminPaymentIntentDto[]).find((p) => p.id === intentId);

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

  it('4242 holds the funds, the admin releases them and the invoice is paid; only real admins may', async () => {
    const { seller, buyer, invoiceId } = await boughtInvoice();
    expect((await createPayment(invoiceId, seller.token)).status).toBe(403);
    const created = await createPayment(invoiceId, buyer.token);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'requires_payment_method', existing: false, provider: 'sandbox', publishable_key: null, client_secret: expect.stringMatching(/^pi_sbx_/) });
    const intentId = created.body.payment_intent_id as string;
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('awaiting_payment');

    // Invalid numbers and a wrong client secret are refused before the sandbox sees anything.
    expect((await confirm(intentId, card('4242 4242 4242 4241', created.body.client_secret), buyer.token)).status).toBe(422);
    expect((await confirm(intentId, card('4242424242424242', 'pi_sbx_wrong_secret'), buyer.token)).status).toBe(404);
    const held = await confirm(intentId, card('4242 4242 4242 4242', created.body.client_secret), buyer.token);
    expect(held.status).toBe(200);
    expect(held.body).toEqual({ payment_intent: { id: intentId, status: 'requires_capture', invoice_id: invoiceId, amount: 3000, last_error: null }, error: null });
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('payment_authorized');
    expect((await get(api(`/payment-intents/${intentId}/status`), bearer(seller.token))).body).toMatchObject({ status: 'requires_capture', amount: 3000 });
    expect(await adminRow(intentId)).toMatchObject({ status: 'requires_capture', amount: 3000, currency: 'usd', capture_method: 'manual', expires_soon: false });

    // Nobody but a real admin captures: not the buyer, not an admin acting as the buyer (D14).
    const body = { amount_to_capture: null, reason: 'Domain transfer verified by admin' };
    expect((await post(api(`/admin/payment-intents/${intentId}/capture`), body, bearer(buyer.token))).status).toBe(403);
    const impersonation = (await post(api(`/admin/impersonate/${buyer.id}`), undefined, bearer(adminToken))).body.impersonation_token as string;
    expect((await post(api(`/admin/payment-intents/${intentId}/capture`), body, bearer(impersonation))).status).toBe(403);
    expect((await post(api(`/admin/payment-intents/${intentId}/refund`), { amount_to_refund: null }, bearer(impersonation))).status).toBe(403);
    expect((await get(api('/admin/payment-intents'), bearer(impersonation))).status).toBe(403);
    // An amount no invoice can hold is refused before any money moves.
    const huge = await post(api(`/admin/payment-intents/${intentId}/capture`), { amount_to_capture: 1e12 }, bearer(adminToken));
    expect(huge.status).toBe(422);
    expect(huge.body.detail[0].loc).toEqual(['body', 'amount_to_capture']);
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('payment_authorized');

    // Release Funds (D22): captured into escrow, then released to the seller, whose payout waits for their account.
    const captured = await post(api(`/admin/payment-intents/${intentId}/capture`), body, bearer(adminToken));
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({
      message: expect.stringMatching(/^Payment captured successfully! /),
      payment_intent: { status: 'succeeded', captured_at: expect.any(String), held_in_escrow_since: expect.any(String), payout: { status: 'waiting_for_account', net: 3000 } },
    });
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('payment_authorized');
    // Released again: the same release, nothing twice.
    const again = await post(api(`/admin/payment-intents/${intentId}/capture`), body, bearer(adminToken));
    expect(again).toMatchObject({ status: 200, body: { payment_intent: { payout: { status: 'waiting_for_account' } } } });
    // The seller onboards: the payout goes out and the invoice is paid.
    const link = (await post(api('/user/payout-account/onboarding'), undefined, bearer(seller.token))).body.url as string;
    await post(api(`/sandbox/payout-onboarding/${new URL(link).pathname.split('/').pop()}/complete`), {}, bearer(seller.token));
    await eventually(async () => expect(await invoiceStatus(invoiceId, buyer.token)).toBe('paid'), 15_000);
    expect(await adminRow(intentId)).toMatchObject({ held_in_escrow_since: null, payout: { status: 'paid', net: 3000 } });

    // A refund once the money reached the seller is refused, saying what to do instead.
    const refunded = await post(api(`/admin/payment-intents/${intentId}/refund`), { amount_to_refund: null, reason: 'Transaction cancelled by admin' }, bearer(adminToken));
    expect(refunded).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/released to the seller on .* \(payout paid\)/) } });
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('paid');
  });

  it('0002 is declined with its text and the payment can be retried; a second creation answers 409 with the open payment', async () => {
    const { buyer, invoiceId } = await boughtInvoice();
    const first = await createPayment(invoiceId, buyer.token);
    const second = await createPayment(invoiceId, buyer.token);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      detail: IN_PROGRESS,
      existing: true,
      payment_intent_id: first.body.payment_intent_id,
      client_secret: first.body.client_secret,
      status: 'requires_payment_method',
      message: IN_PROGRESS,
      provider: 'sandbox',
      // Only Stripe payments carry a publishable key: the web loads Stripe.js for nothing else (D12).
      publishable_key: null,
    });

    const declined = await confirm(first.body.payment_intent_id, card('4000000000000002', first.body.client_secret), buyer.token);
    expect(declined.body).toEqual({
      payment_intent: expect.objectContaining({ status: 'requires_payment_method', last_error: 'Your card was declined.' }),
      error: { code: 'card_declined', message: 'Your card was declined.' },
    });
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('payment_failed');
    const poor = await confirm(first.body.payment_intent_id, card('4000000000009995', first.body.client_secret), buyer.token);
    expect(poor.body.error).toEqual({ code: 'insufficient_funds', message: 'Your card has insufficient funds.' });

    // Retry Payment: the same intent comes back for another card, and it goes through with a confirmation step.
    const retry = await createPayment(invoiceId, buyer.token);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ payment_intent_id: first.body.payment_intent_id, existing: false, status: 'requires_payment_method' });
    const action = await confirm(first.body.payment_intent_id, card('4000 0027 6000 3184', first.body.client_secret), buyer.token);
    expect(action.body).toMatchObject({ payment_intent: { status: 'requires_confirmation' }, error: null });
    const step = await post(api(`/sandbox/payment-intents/${first.body.payment_intent_id}/confirm-step`), { client_secret: first.body.client_secret }, bearer(buyer.token));
    expect(step.body).toMatchObject({ payment_intent: { status: 'requires_capture' }, error: null });
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('payment_authorized');
    expect((await createPayment(invoiceId, buyer.token)).status).toBe(409);
  });

  it('an expired hold makes the invoice payable again; a stranger cannot see a payment', async () => {
    const { buyer, invoiceId } = await boughtInvoice();
    const stranger = await signUp();
    const created = await createPayment(invoiceId, buyer.token);
    await confirm(created.body.payment_intent_id, card('4242424242424242', created.body.client_secret), buyer.token);
    expect((await get(api(`/payment-intents/${created.body.payment_intent_id}/status`), bearer(stranger.token))).status).toBe(404);
    expect((await createPayment(invoiceId, stranger.token)).status).toBe(404);

    await stack.services('billing')[0].get(HoldExpirySweep).sweep(new Date(Date.now() + 7 * DAY + 60_000));
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('payment_canceled');
    expect(await adminRow(created.body.payment_intent_id)).toMatchObject({ status: 'canceled', capture_deadline: null });
    const retried = await createPayment(invoiceId, buyer.token);
    expect(retried.status).toBe(200);
    expect(retried.body.payment_intent_id).not.toBe(created.body.payment_intent_id);
    // D11: the buyer is told, with a link to pay again.
    await eventually(async () => {
      const { body } = await get(api('/admin/emails'), bearer(adminToken));
      const email = body.emails.find((e: { to_address: string; kind: string }) => e.to_address === buyer.email && e.kind === 'hold_expired');
      expect(email?.text_body).toContain(`/dashboard?tab=invoices&pay=${invoiceId}`);
    }, 15_000);
  });

  it('checkout sessions live on the site and send the buyer to the success or cancel page', async () => {
    const { buyer, invoiceId } = await boughtInvoice();
    const session = await post(api(`/invoices/${invoiceId}/create-stripe-session`), {}, bearer(buyer.token));
    expect(session.status).toBe(200);
    const url = new URL(session.body.checkout_url);
    expect(url.pathname).toMatch(/^\/sandbox-checkout\/cs_sbx_[0-9a-f]{24}$/);
    expect(url.searchParams.get('invoice_id')).toBe(invoiceId);
    const sessionId = url.pathname.split('/').pop();
    const complete = (number: string) =>
      post(api(`/sandbox/checkout-sessions/${sessionId}/complete`), { card_number: number, exp_month: 12, exp_year: 2099, cvc: '123' }, bearer(buyer.token));
    const declined = await complete('4000000000000002');
    expect(declined.body).toMatchObject({ redirect_url: expect.stringMatching(new RegExp(`/payment-cancel\\?invoice_id=${invoiceId}$`)), error: { code: 'card_declined' } });
    const paid = await complete('4000002760003184');
    expect(paid.body).toMatchObject({ status: 'requires_capture', error: null });
    expect(paid.body.redirect_url).toMatch(new RegExp(`/payment-success\\?session_id=${sessionId}&invoice_id=${invoiceId}$`));
    expect(await invoiceStatus(invoiceId, buyer.token)).toBe('payment_authorized');
  });
});
