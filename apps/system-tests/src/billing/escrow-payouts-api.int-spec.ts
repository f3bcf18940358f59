import type { AdminPaymentIntentDto, InvoiceDto } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { bearer, get, post, postCounted, signUp as registerUser, startStack, type Stack } from '../support/start-stack';
import { paidSale as paidSaleAt } from '../support/sales';
import { EscrowSweep } from '../../../billing-service/src/payouts/escrow.sweep';

const ADMIN = { email: 'escrow-admin@example.com', password: 'escrow-admin-pass-1' };
const DAY = 24 * 3600_000;

/**
 * Every money path of D22 through the gateway, billing, bidding and listings as they run: escrow past the card hold,
 * a release waiting for the seller's payout account, refunds before and after capture and of a disputed sale (each
 * unwinding the sale so the listing is on sale again), and the ledger balanced and reconciled after all of it.
 */
describe('escrow, payouts and the ledger through the gateway (sandbox provider)', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);

  /** A paid sale at `price` (the funds held). */
  const paidSale = (price = 1200) => paidSaleAt(stack.url, adminToken, price);
  const invoiceOf = async (id: string, token: string) => (await get(api(`/invoices/${id}`), bearer(token))).body as InvoiceDto;
  const adminRow = async (intentId: string) =>
    ((await get(api('/admin/payment-intents'), bearer(adminToken))).body.payment_intents as AdminPaymentIntentDto[]).find((p) => p.id === intentId);
  const listingStatus = async (id: string) => (await get(api(`/listings/${id}`))).body.status as string;
  const onboard = async (token: string) => {
    const { body } = await post(api('/user/payout-account/onboarding'), undefined, bearer(token));
    const linkId = new URL(body.url).pathname.split('/').pop() as string;
    return post(api(`/sandbox/payout-onboarding/${linkId}/complete`), {}, bearer(token));
  };

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

  it('holds the money in escrow past the hold, waits for the seller to onboard, then pays them exactly the net', async () => {
    const sale = await paidSale();
    const started = await post(api(`/invoices/${sale.invoiceId}/transfer-started`), undefined, bearer(sale.seller.token));
    expect(started.body.invoice).toMatchObject({ status: 'payment_authorized', escrow: { captured_at: expect.any(String), payout_status: null } });
    expect(await adminRow(sale.intentId)).toMatchObject({ status: 'succeeded', held_in_escrow_since: expect.any(String), payout: null });
    // The buyer's view says the funds stay held until the transfer is verified.
    expect((await invoiceOf(sale.invoiceId, sale.buyer.token)).status).toBe('payment_authorized');

    expect((await get(api('/user/payout-account'), bearer(sale.seller.token))).body).toEqual({ status: 'not_started', requirements_due: [] });
    const released = await post(api(`/admin/payment-intents/${sale.intentId}/capture`), { amount_to_capture: null, reason: 'Domain transfer verified by admin' }, bearer(adminToken));
    expect(released.status).toBe(200);
    expect(released.body.payment_intent.payout).toMatchObject({ status: 'waiting_for_account', net: 1200, seller_account_status: 'not_started' });
    expect((await get(api('/user/payouts'), bearer(sale.seller.token))).body.payouts).toEqual([expect.objectContaining({ status: 'waiting_for_account', gross: 1200 })]);
    // The seller is told by email, with the next step.
    await eventually(async () => {
      const { body } = await get(api('/admin/emails'), bearer(adminToken));
      const email = body.emails.find((e: { to_address: string; kind: string }) => e.to_address === sale.seller.email && e.kind === 'payout_waiting_seller');
      expect(email?.text_body).toContain('/dashboard?tab=payouts');
    }, 15_000);

    const done = await onboard(sale.seller.token);
    expect(done.body).toMatchObject({ account: { status: 'enabled', requirements_due: [] }, return_url: expect.stringMatching(/\/dashboard\?tab=payouts&onboarding=return$/) });
    await eventually(async () => expect((await invoiceOf(sale.invoiceId, sale.seller.token)).status).toBe('paid'), 15_000);
    expect((await get(api('/user/payouts'), bearer(sale.seller.token))).body).toMatchObject({
      balance: { in_escrow: 0, paid_out: 1200, fees: 0 },
      payouts: [{ status: 'paid', gross: 1200, fee: 0, net: 1200, paid_at: expect.any(String) }],
    });
    // A refund now would come out of the seller's pocket: refused, and it says what to do instead.
    const refund = await post(api(`/admin/payment-intents/${sale.intentId}/refund`), {}, bearer(adminToken));
    expect(refund).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/released to the seller.*reverse the transfer/) } });
  });

  it('captures a hold nobody touched a day before its 7-day deadline', async () => {
    const sale = await paidSale();
    await stack.service('billing').get(EscrowSweep).sweep(new Date(Date.now() + 6 * DAY + 60_000));
    expect(await adminRow(sale.intentId)).toMatchObject({ status: 'succeeded', held_in_escrow_since: expect.any(String), capture_deadline: null });
    expect((await invoiceOf(sale.invoiceId, sale.buyer.token)).status).toBe('payment_authorized');
  });

  it('unwinds a sale refunded before capture, after capture, or by a dispute: the listing is on sale again', async () => {
    const beforeCapture = await paidSale();
    const afterCapture = await paidSale();
    const disputed = await paidSale();
    await post(api(`/invoices/${afterCapture.invoiceId}/transfer-started`), undefined, bearer(afterCapture.seller.token));
    await post(api(`/invoices/${disputed.invoiceId}/transfer-started`), undefined, bearer(disputed.seller.token));
    await post(api(`/invoices/${disputed.invoiceId}/transfer-received`), undefined, bearer(disputed.buyer.token));
    const notReceived = await post(api(`/invoices/${disputed.invoiceId}/dispute`), { reason: 'site_not_received', message: 'I never got the hosting account, at all.' }, bearer(disputed.buyer.token));
    expect(notReceived).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/confirmed that you received the site/) } });
    const opened = await post(api(`/invoices/${disputed.invoiceId}/dispute`), { reason: 'not_as_described', message: 'Revenue is a tenth of what the listing claimed.' }, bearer(disputed.buyer.token));
    expect(opened.status).toBe(200);

    expect((await post(api(`/admin/payment-intents/${beforeCapture.intentId}/refund`), {}, bearer(adminToken))).status).toBe(200);
    expect((await post(api(`/admin/payment-intents/${afterCapture.intentId}/refund`), {}, bearer(adminToken))).status).toBe(200);
    const resolved = await post(api(`/admin/invoices/${disputed.invoiceId}/resolve-dispute`), { action: 'refund', note: 'The figures were false; the buyer is refunded.' }, bearer(adminToken));
    expect(resolved.body.invoice).toMatchObject({ status: 'cancelled', dispute: { outcome: 'refunded' } });
    for (const sale of [beforeCapture, afterCapture, disputed]) {
      expect(await invoiceOf(sale.invoiceId, sale.buyer.token)).toMatchObject({ status: 'cancelled', can_pay: false });
      await eventually(async () => expect(await listingStatus(sale.listingId)).toBe('active'), 20_000);
    }
    expect((await adminRow(afterCapture.intentId))?.refunded_at).not.toBeNull();
  });

  it('keeps the ledger balanced with nothing unreconciled, for admins only', async () => {
    const member = await signUp();
    expect((await get(api('/admin/ledger'), bearer(member.token))).status).toBe(403);
    expect((await post(api('/admin/ledger/reconcile'), undefined, bearer(member.token))).status).toBe(403);
    const reconciled = await post(api('/admin/ledger/reconcile'), undefined, bearer(adminToken));
    expect(reconciled).toMatchObject({ status: 200, body: { differences: 0, unreconciled: 0 } });
    const ledger = (await get(api('/admin/ledger'), bearer(adminToken))).body;
    expect(ledger).toMatchObject({ balanced: true, unreconciled: 0, last_reconciled_at: expect.any(String) });
    const balances = Object.fromEntries((ledger.accounts as { account: string; balance: number }[]).map((a) => [a.account, a.balance]));
    expect(balances).toMatchObject({ seller_payable: 0, refunds: 0 });
    expect(Object.values(balances).reduce((sum, v) => sum + v, 0)).toBeCloseTo(0, 6);
    // Another member's payouts and payout account are never theirs to see.
    expect((await get(api('/user/payouts'), bearer(member.token))).body).toEqual({ balance: { in_escrow: 0, paid_out: 0, fees: 0 }, payouts: [] });
    expect((await get(api('/admin/ledger/invoices/00000000-0000-4000-8000-000000000000'), bearer(adminToken))).status).toBe(404);
  });
});
