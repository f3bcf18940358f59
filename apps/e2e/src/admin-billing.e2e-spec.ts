import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { AdminTransactionsResponse, InvoiceAnalytics } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { adminToken, apiCall, registerAccount } from './support/api';
import { launchBrowser, snap } from './support/browser';
import { sql } from './support/database';
import { logInAsAdmin } from './support/journey';
import { sidewaysOverflow } from './support/sales';
import { buyNow, payAndRelease } from './support/completed-sale';

const PHONE = { width: 390, height: 844 };
const EMPTY = 'No analytics data available. Click "Refresh Data" to load.';

/** Screenshots the page at desktop width and at 390 px, where nothing may scroll sideways. */
async function snapBothWidths(page: Page, name: string): Promise<void> {
  await snap(page, name);
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await snap(page, `${name}-phone`);
  if (desktop) await page.setViewportSize(desktop);
}

describe('admin Transactions and Analytics tabs backed by invoices (D20)', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an admin filters real transactions and reads the analytics with both charts; a failed refresh clears them', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('txseller');
    const [ann, bob, cat] = [await registerAccount('txann'), await registerAccount('txbob'), await registerAccount('txcat')];
    const paidTitle = `Paid garden blog ${tag}`;
    const oldTitle = `Older recipe site ${tag}`;
    const freshTitle = `Fresh tools shop ${tag}`;
    const sale = await buyNow(seller, ann, paidTitle, 2400);
    const paid = sale.invoiceId;
    const old = (await buyNow(seller, bob, oldTitle, 1800)).invoiceId;
    await buyNow(seller, cat, freshTitle, 950);
    await payAndRelease(seller, ann, sale.invoiceId, sale.sessionId);
    // What time would do, for the charts: the payment six days ago and one invoice twelve days old (not yet due).
    await sql(`UPDATE billing.invoices SET paid_at = now() - interval '6 days' WHERE id = $1`, [paid]);
    await sql(`UPDATE billing.invoices SET created_at = now() - interval '12 days', due_date = now() + interval '1 day' WHERE id = $1`, [old]);
    const api = await apiCall<AdminTransactionsResponse>('GET', '/admin/transactions?status=completed', undefined, await adminToken());
    expect(api.body.transactions.find((t) => t.id === paid)?.status).toBe('completed');

    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await logInAsAdmin(page);
    await page.waitForURL(/\/dashboard/);
    const tabs = page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link');
    await eventually(async () => expect(await tabs.allTextContents()).toEqual(['Overview', 'Users', 'Listings', 'Transactions', 'Payments', 'Ledger', 'Analytics', 'Settings', 'Audit', 'Profile']));

    await tabs.filter({ hasText: 'Transactions' }).click();
    const rows = page.getByTestId('admin-transaction-row');
    const ours = rows.filter({ hasText: tag });
    await eventually(async () => expect(await ours.count()).toBe(3));
    expect(await page.locator('table.admin-transactions-table th').allTextContents()).toEqual(['Transaction ID', 'Listing', 'Buyer/Seller', 'Amount', 'Status', 'Date', 'Actions']);
    const paidRow = ours.filter({ hasText: paidTitle });
    await eventually(async () => expect(await paidRow.textContent()).toMatch(new RegExp(`INV-\\d{4}-\\d{6}.*${ann.username}.*${seller.username}.*\\$2,400.*completed`)));
    const status = page.getByLabel('Status');
    expect(await status.locator('option').allTextContents()).toEqual(['All Transactions', 'completed', 'pending', 'failed']);
    await snapBothWidths(page, 'admin-transactions');

    await status.selectOption('completed');
    await eventually(async () => expect(await ours.count()).toBe(1));
    expect(await ours.first().textContent()).toContain(paidTitle);
    await status.selectOption('failed');
    await eventually(async () => expect(await ours.count()).toBe(0));
    await status.selectOption('pending');
    await eventually(async () => expect(await ours.count()).toBe(2));

    await tabs.filter({ hasText: 'Analytics' }).click();
    await page.getByText('Payment rate').waitFor();
    expect(await page.getByRole('img', { name: /Paid revenue per day, last 30 days/ }).count()).toBe(1);
    expect(await page.getByRole('img', { name: /Unpaid invoice amounts by days since creation/ }).count()).toBe(1);
    // Other journeys' buyers may outrank ours: the table shows whoever the API ranks first.
    const ranked = await apiCall<InvoiceAnalytics>('GET', '/admin/invoice-analytics', undefined, await adminToken());
    expect(ranked.body.top_customers.length).toBeGreaterThan(0);
    await eventually(async () => expect(await page.locator('.admin-top-customers tbody tr').first().textContent()).toContain(ranked.body.top_customers[0].customer_name));
    expect(await page.locator('.stat-value').filter({ hasText: /^\d+\.\d%$/ }).count()).toBe(2);
    await snapBothWidths(page, 'admin-analytics');

    // A failed refresh clears the figures and shows the empty prompt (SPEC §8); the next one brings them back.
    await page.route('**/api/admin/invoice-analytics', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"boom"}' }));
    await page.getByRole('button', { name: 'Refresh Data' }).click();
    await page.getByText(EMPTY).waitFor();
    expect(await page.getByText('Payment rate').count()).toBe(0);
    await snap(page, 'admin-analytics-failed');
    await page.unroute('**/api/admin/invoice-analytics');
    await page.getByRole('button', { name: 'Refresh Data' }).click();
    await page.getByText('Payment rate').waitFor();
    expect(await page.getByText(EMPTY).count()).toBe(0);
    await page.context().close();
  });
});
