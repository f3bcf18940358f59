import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { PlatformSettingsView, SellerPayoutsDto } from '@market/contracts';
import { formatDollars } from '@market/domain';
import { eventually } from '@market/server-kit/testing';
import { adminToken, apiCall, registerAccount } from './support/api';
import { baseUrl, launchBrowser } from './support/browser';
import { DESKTOP, invoiceOf, invoiceRow, snapBoth } from './support/invoices';
import { logInAsAdmin } from './support/journey';
import { loggedInPage, openSale } from './support/sales';

/** Billing's test clock (BILLING_CLOCK_FILE, set by the journeys' system): how far ahead of now it decides. */
function setBillingClock(offsetMs: number): void {
  const file = process.env.E2E_BILLING_CLOCK_FILE;
  if (!file) throw new Error('E2E_BILLING_CLOCK_FILE is not set by the global setup');
  writeFileSync(file, JSON.stringify({ offset_ms: offsetMs }));
}

/** The success fee in force for invoices made from now on (D10), set as an admin does in Settings. */
async function setSuccessFee(percent: number): Promise<void> {
  const token = await adminToken();
  const { body } = await apiCall<PlatformSettingsView>('GET', '/admin/settings', undefined, token);
  const saved = await apiCall('POST', '/admin/settings', { ...body, success_fee: percent }, token);
  if (saved.status !== 200) throw new Error(`settings: ${saved.status} ${JSON.stringify(saved.body)}`);
}

describe('money that reaches the seller (D22)', () => {
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    setBillingClock(0);
    await setSuccessFee(0);
    await Promise.all(pages.map((page) => page.context().close()));
    await browser?.close();
  });

  it('a $1,200 sale paid with 4242 is held in escrow, the seller onboards, the buyer confirms, and after the inspection period the seller is paid the net; the ledger balances', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('payseller');
    const buyer = await registerAccount('paybuyer');
    const title = `Heron recipes ${tag}`;
    await setSuccessFee(5);
    const listing = await openSale(seller, { title, listing_type: 'fixed', starting_price: '1200' });

    // The buyer buys the site and pays on the sandbox checkout with 4242: the funds are held.
    const buyerPage = await loggedInPage(browser, buyer, DESKTOP);
    pages.push(buyerPage);
    await buyerPage.goto(`${baseUrl()}/listing/${listing.id}`);
    await buyerPage.getByRole('button', { name: 'Buy Now' }).click();
    await buyerPage.getByRole('dialog', { name: 'Confirm purchase' }).getByRole('button', { name: `Buy for ${formatDollars(1200)}` }).click();
    await buyerPage.waitForURL(/\/sandbox-checkout\//, { timeout: 15_000 });
    const checkout = buyerPage.getByTestId('sandbox-checkout');
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
    await checkout.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await checkout.getByLabel('CVC').fill('123');
    await checkout.getByRole('button', { name: `Pay ${formatDollars(1200)}` }).click();
    await buyerPage.waitForURL(/\/payment-success\?/, { timeout: 15_000 });
    await buyerPage.getByTestId('payment-success').getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    // The fee in force when the invoice was made stays with it (D10), whatever the settings say later.
    await setSuccessFee(0);
    expect(await invoiceOf(buyer, listing.id)).toMatchObject({ status: 'payment_authorized', escrow: { captured_at: null } });

    // The seller starts the transfer: the held funds are captured into escrow, and the invoice stays "funds held".
    const sellerPage = await loggedInPage(browser, seller, DESKTOP);
    pages.push(sellerPage);
    const sellerRow = await invoiceRow(sellerPage, title);
    await sellerRow.getByRole('button', { name: /^Mark transfer of INV-\d{4}-\d{6} started$/ }).click();
    await sellerRow.getByText('Transfer marked as started.', { exact: false }).waitFor();
    await eventually(async () => expect((await invoiceOf(seller, listing.id)).escrow.captured_at).not.toBeNull(), 10_000);
    expect((await invoiceOf(seller, listing.id)).status).toBe('payment_authorized');
    await snapBoth(sellerPage, 'escrow-seller-started');

    // The seller sets up payouts from the Payouts section, on the sandbox's TEST MODE onboarding page.
    await sellerPage.goto(`${baseUrl()}/dashboard?tab=payouts`);
    await sellerPage.getByTestId('payout-account-status').waitFor();
    expect(await sellerPage.getByTestId('payout-account-status').getAttribute('data-status')).toBe('not_started');
    await sellerPage.getByTestId('payout-row').filter({ hasText: title }).getByTestId('payout-row-status').getByText('Held in escrow').waitFor();
    await snapBoth(sellerPage, 'payouts-not-started');
    await sellerPage.getByTestId('payout-account-action').click();
    await sellerPage.waitForURL(/\/sandbox-onboarding\/acctlink_sbx_/, { timeout: 15_000 });
    await sellerPage.getByTestId('sandbox-onboarding').waitFor();
    await snapBoth(sellerPage, 'sandbox-onboarding');
    await sellerPage.getByTestId('sandbox-onboarding-complete').click();
    await sellerPage.waitForURL(/\/dashboard\?tab=payouts&onboarding=return/, { timeout: 15_000 });
    await eventually(async () => expect(await sellerPage.getByTestId('payout-account-status').getAttribute('data-status')).toBe('enabled'), 10_000);
    await snapBoth(sellerPage, 'payouts-enabled');

    // The buyer confirms they have the site: the inspection period starts.
    const buyerRow = await invoiceRow(buyerPage, title);
    await buyerRow.getByRole('button', { name: /^I have received the site of / }).click();
    await buyerRow.getByText(/inspection period/).first().waitFor();
    const received = await invoiceOf(buyer, listing.id);
    expect(received.escrow.release_due_at).not.toBeNull();
    await snapBoth(buyerPage, 'escrow-buyer-received');

    // The inspection period passes (billing's test clock moves past it, no waiting): the escrow sweep pays the seller.
    setBillingClock(new Date(received.escrow.release_due_at as string).getTime() - Date.now() + 60_000);
    const paid = await eventually(async () => {
      const { body } = await apiCall<SellerPayoutsDto>('GET', '/user/payouts', undefined, seller.token);
      const payout = body.payouts.find((p) => p.invoice_id === received.id);
      expect(payout?.status).toBe('paid');
      return body;
    }, 20_000);
    expect(paid.payouts.find((p) => p.invoice_id === received.id)).toMatchObject({ gross: 1200, fee: 60, net: 1140 });
    expect((await invoiceOf(buyer, listing.id)).status).toBe('paid');

    await sellerPage.goto(`${baseUrl()}/dashboard?tab=payouts`);
    const payoutRow = sellerPage.getByTestId('payout-row').filter({ hasText: title });
    await payoutRow.getByTestId('payout-row-status').getByText('Paid', { exact: true }).waitFor();
    expect(await payoutRow.getByTestId('payout-row-gross').textContent()).toBe('$1,200');
    expect(await payoutRow.getByTestId('payout-row-fee').textContent()).toBe('$60');
    expect(await payoutRow.getByTestId('payout-row-net').textContent()).toBe('$1,140');
    await snapBoth(sellerPage, 'payouts-paid');

    // The admin's Ledger tab: every transaction balances and, reconciled now (billing's clock still ahead, so this sale's
    // entries are settled and compared), nothing differs from the provider.
    const adminPage = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    pages.push(adminPage);
    await logInAsAdmin(adminPage);
    await adminPage.waitForURL(/\/dashboard/);
    await adminPage.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Ledger' }).click();
    await adminPage.getByRole('button', { name: 'Reconcile now' }).click();
    await adminPage.getByTestId('ledger-reconcile-message').getByText(/Reconciled \d+ days: [1-9][\d,]* provider transactions against [1-9][\d,]* ledger transactions\. No new differences/).waitFor();
    await adminPage.getByTestId('ledger-balanced').getByText('Balanced', { exact: true }).waitFor();
    await adminPage.getByTestId('ledger-unreconciled').getByText('Nothing unreconciled').waitFor();
    await snapBoth(adminPage, 'admin-ledger');
    setBillingClock(0);
  });
});
