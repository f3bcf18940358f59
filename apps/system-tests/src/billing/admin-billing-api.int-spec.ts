import type { AdminTransactionDto, InvoiceAnalytics } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'admin-billing@example.com', password: 'admin-billing-pass-1' };

describe('admin transactions and invoice analytics through the gateway (ADR 0021)', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);
  const buyNow = (listingId: string, token: string) => post(api(`/listings/${listingId}/buy-now`), undefined, bearer(token));
  /** A sale by buy-now (as a buyer would), answering its invoice id. */
  const sale = async (sellerToken: string, buyerToken: string, price: number): Promise<string> => {
    const listing = await createLiveListing(stack.url, sellerToken, adminToken, { listing_type: 'fixed', starting_price: price });
    await eventually(async () => expect((await buyNow(listing.id, sellerToken)).body).toMatchObject({ detail: 'You cannot buy your own listing' }), 15_000);
    const bought = await buyNow(listing.id, buyerToken);
    expect(bought.status).toBe(201);
    return bought.body.invoice.id as string;
  };
  const transactions = async (query = '', token = adminToken) => (await get(api(`/admin/transactions${query}`), bearer(token))).body.transactions as AdminTransactionDto[];

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

  it('shows real invoices to a real admin: analytics in the SPEC shape and transactions by status', async () => {
    const [seller, ann, bob] = [await signUp(), await signUp(), await signUp()];
    const empty = (await get(api('/admin/invoice-analytics'), bearer(adminToken))).body as InvoiceAnalytics;
    expect(empty.performance).toEqual({ payment_rate: 0, overdue_rate: 0 });

    const paid = await sale(seller.token, ann.token, 1200);
    const open = await sale(seller.token, bob.token, 800);
    expect((await call('PATCH', api(`/invoices/${paid}/mark-paid`), undefined, bearer(seller.token))).status).toBe(200);

    const analytics = await get(api('/admin/invoice-analytics'), bearer(adminToken));
    expect(analytics.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(analytics.body).toEqual({
      overview: { total_invoices: 2, paid_invoices: 1, pending_invoices: 1, overdue_invoices: 0 },
      financial: { total_revenue: 1200, pending_revenue: 800, overdue_revenue: 0, avg_invoice_value: 1000 },
      performance: { payment_rate: 50, overdue_rate: 0 },
      aging_analysis: {
        '0-7_days': { count: 1, amount: 800 },
        '8-30_days': { count: 0, amount: 0 },
        '31-60_days': { count: 0, amount: 0 },
        '60+_days': { count: 0, amount: 0 },
      },
      top_customers: [{ customer_id: ann.id, customer_name: ann.username, revenue: 1200 }],
      revenue_over_time: expect.any(Array),
    });
    expect(analytics.body.revenue_over_time).toHaveLength(30);
    expect(analytics.body.revenue_over_time.at(-1)).toEqual({ date: today, revenue: 1200 });

    const all = await transactions();
    expect(all.map((t) => t.id)).toEqual([open, paid]);
    expect(all[0]).toEqual({
      id: open,
      transaction_id: expect.stringMatching(/^INV-\d{4}-\d{6}$/),
      listing_id: expect.any(String),
      listing_title: 'Bird watching blog with a big newsletter',
      buyer: { id: bob.id, username: bob.username },
      seller: { id: seller.id, username: seller.username },
      amount: 800,
      status: 'pending',
      invoice_status: 'pending',
      payment_status: null,
      date: expect.any(String),
    });
    expect((await transactions('?status=all')).length).toBe(2);
    expect((await transactions('?status=completed')).map((t) => [t.id, t.status])).toEqual([[paid, 'completed']]);
    expect((await transactions('?status=pending')).map((t) => t.id)).toEqual([open]);
    expect(await transactions('?status=failed')).toEqual([]);
    const bad = await get(api('/admin/transactions?status=refunded'), bearer(adminToken));
    expect(bad.status).toBe(422);
  });

  it('refuses users, impersonation tokens and anonymous callers', async () => {
    const user = await signUp();
    const impersonation = (await post(api(`/admin/impersonate/${user.id}`), undefined, bearer(adminToken))).body.impersonation_token as string;
    for (const path of ['/admin/invoice-analytics', '/admin/transactions', '/admin/transactions?status=completed']) {
      expect((await get(api(path), bearer(user.token))).status).toBe(403);
      const asImpersonator = await get(api(path), bearer(impersonation));
      expect(asImpersonator.status).toBe(403);
      expect(asImpersonator.body).toMatchObject({ detail: expect.any(String) });
      expect((await get(api(path))).status).toBe(401);
    }
  });
});
