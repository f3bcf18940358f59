import type { InvoiceDto, UserBidRow } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'invoices-admin@example.com', password: 'invoices-admin-pass-1' };
const INVOICE_NUMBER = /^INV-\d{4}-\d{6}$/;

describe('invoices and buy-now through the gateway', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);

  const buyNow = (listingId: string, token?: string) => post(api(`/listings/${listingId}/buy-now`), undefined, token ? bearer(token) : {});
  const invoicesOf = async (token: string) => (await get(api('/invoices'), bearer(token))).body.invoices as InvoiceDto[];
  /** A live fixed-price listing the bidding service already knows (its seller is refused as a buyer, not 404). */
  const fixedListing = async (sellerToken: string, price: number) => {
    const listing = await createLiveListing(stack.url, sellerToken, adminToken, { listing_type: 'fixed', starting_price: price });
    await eventually(async () => expect((await buyNow(listing.id, sellerToken)).body).toMatchObject({ detail: 'You cannot buy your own listing' }), 15_000);
    return listing;
  };
  const pdfOf = async (invoiceId: string, token: string) => {
    const response = await fetch(api(`/invoices/${invoiceId}/pdf`), { headers: bearer(token) });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const settingsWith = async (changes: Record<string, unknown>) => {
    // The Settings tab posts the whole object back (SPEC §7); smtp_password_set is read-only.
    const { smtp_password_set: _set, ...current } = (await get(api('/admin/settings'), bearer(adminToken))).body;
    const saved = await post(api('/admin/settings'), { ...current, ...changes }, bearer(adminToken));
    expect(saved.status).toBe(200);
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding', 'billing'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BROWSE_CACHE_MS: '0' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('tells every page, through GET /api/site, that the sandbox runs the payments (ADR 0033)', async () => {
    const site = await get(api('/site'));
    expect(site.status).toBe(200);
    expect(site.body).toEqual({ payments: { provider: 'sandbox', test_mode: true } });
    expect(site.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('buys a listing below $5,000 now: an invoice for buyer and seller, the listing sold, nobody else can buy it', async () => {
    const [seller, buyer, late, stranger] = [await signUp(), await signUp(), await signUp(), await signUp()];
    const listing = await fixedListing(seller.token, 4500);
    expect((await buyNow(listing.id)).status).toBe(401);
    expect((await buyNow('not-a-uuid', buyer.token)).status).toBe(422);
    expect((await buyNow('00000000-0000-4000-8000-000000000000', buyer.token)).status).toBe(404);

    const bought = await buyNow(listing.id, buyer.token);
    expect(bought.status).toBe(201);
    expect(bought.body).toEqual({
      message: 'Purchase successful! Complete your payment from your invoices.',
      redirect_to_payment: false,
      payment: null,
      fallback_payment_required: true,
      invoice: { id: expect.any(String), invoice_number: expect.stringMatching(INVOICE_NUMBER) },
      payment_setup_failed: false,
    });
    const { id } = bought.body.invoice;

    const [asBuyer] = await invoicesOf(buyer.token);
    expect(asBuyer).toMatchObject({
      id,
      invoice_number: bought.body.invoice.invoice_number,
      sale_type: 'buy_now',
      role: 'buyer',
      listing_id: listing.id,
      website_title: 'Bird watching blog with a big newsletter',
      website_url: 'https://birds.example.com',
      total_amount: 4500,
      status: 'pending',
      buyer: { id: buyer.id, username: buyer.username },
      seller: { id: seller.id, username: seller.username },
      success_fee_percent: null,
      success_fee: null,
      payout: null,
      can_pay: true,
      can_mark_paid: false,
      // The stack's billing runs the sandbox: the invoice says no real money moves (ADR 0033).
      test_mode: true,
    });
    expect(new Date(asBuyer.due_date).getTime() - new Date(asBuyer.created_at).getTime()).toBe(7 * 24 * 3600_000);
    expect(await invoicesOf(seller.token)).toEqual([
      { ...asBuyer, role: 'seller', success_fee_percent: 0, success_fee: 0, payout: 4500, can_pay: false, can_mark_paid: true },
    ]);
    expect(await invoicesOf(stranger.token)).toEqual([]);

    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body.status).toBe('sold'), 15_000);
    expect((await buyNow(listing.id, late.token)).body).toMatchObject({ detail: 'This listing is no longer available' });

    expect((await get(api(`/invoices/${id}`), bearer(buyer.token))).body).toEqual(asBuyer);
    expect((await get(api(`/invoices/${id}`), bearer(stranger.token))).body).toMatchObject({ detail: 'Invoice not found' });
    expect((await get(api(`/invoices/${id}`), bearer(stranger.token))).status).toBe(404);
    expect((await get(api(`/invoices/${id}`))).status).toBe(401);
    expect((await get(api('/invoices/not-a-uuid'), bearer(buyer.token))).status).toBe(422);
    expect((await get(api(`/invoices/${id}`), bearer(adminToken))).body).toMatchObject({ id, payout: 4500, can_pay: false, can_mark_paid: false });
  });

  it('serves the PDF to the parties, named after the invoice number, and lets only the seller mark a pending invoice paid', async () => {
    const [seller, buyer, stranger] = [await signUp(), await signUp(), await signUp()];
    const listing = await fixedListing(seller.token, 1200);
    const { id, invoice_number } = (await buyNow(listing.id, buyer.token)).body.invoice;

    for (const token of [buyer.token, seller.token]) {
      const pdf = await pdfOf(id, token);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${invoice_number}.pdf"`);
      expect(pdf.headers.get('cache-control')).toBe('no-store');
      expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.bytes.toString('latin1')).toContain(`Invoice ${invoice_number}`);
    }
    expect((await pdfOf(id, stranger.token)).status).toBe(404);

    const stats = async () => (await get(api('/admin/stats'), bearer(adminToken))).body.total_transactions as number;
    const paidBefore = await stats();
    const markPaid = (token: string) => call('PATCH', api(`/invoices/${id}/mark-paid`), undefined, bearer(token));
    expect((await markPaid(buyer.token)).status).toBe(403);
    expect((await markPaid(stranger.token)).status).toBe(404);
    const marked = await markPaid(seller.token);
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ message: 'Invoice marked as paid', invoice: { id, status: 'paid', role: 'seller', can_mark_paid: false } });
    expect(typeof marked.body.invoice.paid_at).toBe('string');
    expect((await markPaid(seller.token)).body).toMatchObject({ detail: 'Only a pending invoice can be marked as paid; this invoice is paid' });
    expect((await invoicesOf(buyer.token))[0]).toMatchObject({ status: 'paid', can_pay: false });
    expect(await stats()).toBe(paidBefore + 1);
  });

  it('sells to exactly one of two buyers who press buy-now at the same moment', async () => {
    const seller = await signUp();
    const [ann, bob] = [await signUp(), await signUp()];
    const listing = await fixedListing(seller.token, 3000);
    const answers = await Promise.all([buyNow(listing.id, ann.token), buyNow(listing.id, bob.token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    const winner = answers[0].status === 201 ? ann : bob;
    const sellerInvoices = await invoicesOf(seller.token);
    expect(sellerInvoices).toHaveLength(1);
    expect(sellerInvoices[0]).toMatchObject({ listing_id: listing.id, buyer: { id: winner.id }, total_amount: 3000 });
    expect((await invoicesOf(winner === ann ? bob.token : ann.token)).length).toBe(0);
  });

  it('refuses a direct purchase from $5,000 with the reason', async () => {
    const [seller, buyer] = [await signUp(), await signUp()];
    const listing = await fixedListing(seller.token, 5000);
    const refused = await buyNow(listing.id, buyer.token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ detail: 'Purchases from $5,000 are completed through escrow: contact the seller' });
    expect(await invoicesOf(buyer.token)).toEqual([]);
  });

  it('invoices an accepted bid as an auction win', async () => {
    const [seller, bidder] = [await signUp(), await signUp()];
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { starting_price: 700, auction_type: 'manual' });
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 700 }, bearer(bidder.token))).status).toBe(201), 15_000);
    const [row] = (await get(api('/user/bids'), bearer(seller.token))).body.bids as UserBidRow[];
    expect((await post(api(`/bids/${row.id}/action`), { action: 'accept' }, bearer(seller.token))).status).toBe(201);
    const invoice = await eventually(async () => {
      const [found] = await invoicesOf(bidder.token);
      expect(found).toBeDefined();
      return found;
    }, 15_000);
    expect(invoice).toMatchObject({ sale_type: 'auction_win', role: 'buyer', listing_id: listing.id, total_amount: 700, status: 'pending', can_pay: true });
    expect(invoice.invoice_number).toMatch(INVOICE_NUMBER);
  });

  it('takes the success fee from the settings at creation: exact fee and payout for the seller; older invoices keep theirs', async () => {
    const [seller, buyer] = [await signUp(), await signUp()];
    const before = await fixedListing(seller.token, 2000);
    expect((await buyNow(before.id, buyer.token)).status).toBe(201);
    await settingsWith({ success_fee: 5 });
    try {
      const listing = await fixedListing(seller.token, 4999);
      const { id } = (await buyNow(listing.id, buyer.token)).body.invoice;
      const rows = await invoicesOf(seller.token);
      expect(rows.find((r) => r.id === id)).toMatchObject({ total_amount: 4999, success_fee_percent: 5, success_fee: 249.95, payout: 4749.05 });
      expect(rows.find((r) => r.listing_id === before.id)).toMatchObject({ total_amount: 2000, success_fee_percent: 0, success_fee: 0, payout: 2000 });
      expect((await invoicesOf(buyer.token)).find((r) => r.id === id)).toMatchObject({ success_fee_percent: null, success_fee: null, payout: null });
    } finally {
      await settingsWith({ success_fee: 0 });
    }
  });
});
