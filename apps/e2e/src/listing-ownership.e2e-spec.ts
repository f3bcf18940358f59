import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { BuyNowResponse } from '@market/contracts';
import { startLocalDnsServer, type LocalDnsServer } from '@market/server-kit/testing';
import { apiCall, approveListing, createListingViaApi, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { logInAs, logInAsAdmin } from './support/journey';
import { openSale } from './support/sales';

describe('ownership of a domain proven by a published token (ADR 0040)', () => {
  let browser: Browser;
  let dns: LocalDnsServer;

  beforeAll(async () => {
    // The e2e system's listings-service asks this server (DOMAIN_PROOF_DNS_SERVERS, set by the global setup).
    // One after the other, so whichever started is closed in afterAll even when the other fails.
    browser = await launchBrowser();
    dns = await startLocalDnsServer(Number(process.env.E2E_OWNERSHIP_DNS_PORT));
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), dns?.close()]);
  });

  it('publishes the token as a TXT record, checks, and the badge shows on the listing and its browse card', async () => {
    const tag = randomBytes(3).toString('hex');
    const domain = `candles-${tag}.example.test`;
    const seller = await registerAccount('owner');
    const listing = await createListingViaApi(seller.token, { title: `Candle shop ${tag}`, website_url: `https://${domain}` });
    await approveListing(listing.id);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logInAs(page, seller.username, seller.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/listing/${listing.id}`);
    const panel = page.getByRole('region', { name: 'Verify ownership' });
    const record = await panel.getByTestId('ownership-txt').textContent();
    expect(record).toMatch(/^site-market-verification=[A-Za-z0-9_-]{24}$/);
    await snap(page, 'ownership-e2e-panel-desktop');

    // The domain exists but the token is not published yet: the check says what to do.
    dns.set(domain, { txt: ['v=spf1 -all'] });
    await panel.getByRole('button', { name: 'Check now' }).click();
    await panel.getByRole('alert').getByText(`We found no site-market-verification record for this token on ${domain}.`, { exact: false }).waitFor();
    await snap(page, 'ownership-e2e-not-found-desktop');

    // Published: after the pause between checks, the next check verifies the listing.
    dns.set(domain, { txt: [record as string] });
    await expectCheckPasses(page);
    await panel.getByText('Domain verified.', { exact: false }).waitFor();
    await page.locator('.detail-badges').getByText('Domain verified').waitFor();
    await snap(page, 'ownership-e2e-verified-desktop');

    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await page.locator('.detail-badges').getByText('Domain verified').waitFor();
    await panel.getByText('Domain verified.', { exact: false }).waitFor();
    await snap(page, 'ownership-e2e-verified-375');

    // A visitor sees the badge on the browse card.
    const visitor = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await visitor.goto(`${baseUrl()}/browse?search=${encodeURIComponent(`Candle shop ${tag}`)}`);
    const card = visitor.getByTestId('listing-card').filter({ hasText: `Candle shop ${tag}` });
    await card.getByText('Domain verified').waitFor();
    await snap(visitor, 'ownership-e2e-browse-card-desktop');
    await visitor.setViewportSize({ width: 375, height: 800 });
    await snap(visitor, 'ownership-e2e-browse-card-375');
    await context.close();
  });

  it('the buyer of a held sale publishes their own token and the invoice and the admin Payments tab read Transfer verified', async () => {
    const tag = randomBytes(3).toString('hex');
    const domain = `kites-${tag}.example.test`;
    const [seller, buyer] = [await registerAccount('kiteseller'), await registerAccount('kitebuyer')];
    const listing = await openSale(seller, { title: `Kite shop ${tag}`, listing_type: 'fixed', starting_price: '1500', website_url: `https://${domain}` });
    const bought = await apiCall<BuyNowResponse>('POST', `/listings/${listing.id}/buy-now`, undefined, buyer.token);
    expect(bought.status).toBe(201);
    const sessionId = new URL(bought.body.payment?.checkout_url as string).pathname.split('/').pop() as string;
    const card = { card_number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' };
    expect([200, 201]).toContain((await apiCall('POST', `/sandbox/checkout-sessions/${sessionId}/complete`, card, buyer.token)).status);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logInAs(page, buyer.username, buyer.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/dashboard?tab=invoices`);
    const row = page.getByTestId('invoice-row').filter({ hasText: `Kite shop ${tag}` });
    await row.getByRole('button', { name: 'Verify the transfer on the domain' }).click();
    const record = await row.getByTestId('transfer-proof-txt').textContent();
    expect(record).toMatch(/^site-market-verification=[A-Za-z0-9_-]{24}$/);
    dns.set(domain, { txt: [record as string] });
    await row.getByRole('button', { name: 'Check now' }).click();
    await row.getByTestId('transfer-verified').waitFor();
    await snap(page, 'ownership-e2e-invoice-transfer-verified-desktop');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await page.getByTestId('invoice-row').filter({ hasText: `Kite shop ${tag}` }).getByTestId('transfer-verified').waitFor();
    await snap(page, 'ownership-e2e-invoice-transfer-verified-375');
    await context.close();

    const adminPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInAsAdmin(adminPage);
    await adminPage.waitForURL(/\/dashboard/);
    await adminPage.getByRole('link', { name: 'Payments', exact: true }).click();
    const paymentRow = adminPage.getByTestId('admin-payment-row').filter({ hasText: `Kite shop ${tag}` });
    await paymentRow.getByTestId('admin-transfer-verified').waitFor();
    await paymentRow.getByRole('button', { name: 'Release Funds' }).waitFor();
    await snap(adminPage, 'ownership-e2e-admin-payments-desktop');
    await adminPage.setViewportSize({ width: 375, height: 800 });
    await snap(adminPage, 'ownership-e2e-admin-payments-375');
    await adminPage.close();
  });
});

/**
 * Presses Check now as a seller would: a check within 10 s of the last is refused with how long to wait (ADR 0040), and
 * the seller presses again after exactly that long.
 */
async function expectCheckPasses(page: Page): Promise<void> {
  const panel = page.getByRole('region', { name: 'Verify ownership' });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const answer = page.waitForResponse((r) => r.url().endsWith('/ownership/check'));
    await panel.getByRole('button', { name: 'Check now' }).click();
    const response = await answer;
    if (response.status() === 200) return;
    const detail = ((await response.json()) as { detail: string }).detail;
    const wait = /try again in (\d+) seconds/.exec(detail);
    if (response.status() !== 429 || !wait) throw new Error(`ownership check answered ${response.status()}: ${detail}`);
    await panel.getByRole('alert').getByText(detail).waitFor();
    await page.waitForTimeout(Number(wait[1]) * 1000);
  }
  throw new Error('ownership check never passed');
}
