import { randomBytes } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import type { InvoiceDto, InvoicesResponse } from '@market/contracts';
import { formatDollars } from '@market/domain';
import { eventually } from '@market/server-kit/testing';
import { apiCall, registerAccount, type ApiAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { logInAsAdmin } from './support/journey';
import { bidViaApi, loggedInPage, moveSaleEnd, openSale, sidewaysOverflow } from './support/sales';

const PHONE = { width: 390, height: 844 };

/** The account's invoice for a listing, as the API shows it to them. */
async function invoiceOf(account: ApiAccount, listingId: string): Promise<InvoiceDto> {
  const { body } = await apiCall<InvoicesResponse>('GET', '/invoices', undefined, account.token);
  const invoice = body.invoices.find((row) => row.listing_id === listingId);
  if (!invoice) throw new Error(`${account.username} has no invoice for ${listingId}`);
  return invoice;
}

/** Fills the sandbox card form inside `scope`. */
async function fillCard(scope: Locator, number: string): Promise<void> {
  await scope.getByLabel('Card number').fill(number);
  await scope.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await scope.getByLabel('CVC').fill('123');
}

describe('card payments: checkout, escrow release and a declined card', () => {
  let browser: Browser;
  const pages: Page[] = [];
  const open = async (account: ApiAccount, viewport?: { width: number; height: number }) => {
    const page = await loggedInPage(browser, account, viewport);
    pages.push(page);
    return page;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.context().close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('buy now under $5,000 goes to the checkout, 4242 holds the funds, the admin releases them and the invoice is paid', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('payseller');
    const buyer = await registerAccount('paybuyer');
    const title = `Osprey nest cam ${tag}`;
    const listing = await openSale(seller, { title, listing_type: 'fixed', starting_price: '3200' });

    const buyerPage = await open(buyer);
    await buyerPage.goto(`${baseUrl()}/listing/${listing.id}`);
    await buyerPage.getByRole('button', { name: 'Buy Now' }).click();
    await buyerPage.getByRole('dialog', { name: 'Confirm purchase' }).getByRole('button', { name: `Buy for ${formatDollars(3200)}` }).click();
    await buyerPage.waitForURL(/\/sandbox-checkout\/cs_sbx_[0-9a-f]{24}\?invoice_id=/, { timeout: 15_000 });

    const checkout = buyerPage.getByTestId('sandbox-checkout');
    await checkout.getByRole('heading', { name: title }).waitFor();
    await checkout.getByText('TEST MODE', { exact: true }).waitFor();
    // The form checks the card before anything is sent.
    await fillCard(checkout, '4242 4242 4242 4241');
    await checkout.getByRole('button', { name: `Pay ${formatDollars(3200)}` }).click();
    await checkout.getByText('Your card number is invalid.').waitFor();
    // A declined card is said on the page, which stays for another card.
    await fillCard(checkout, '4000 0000 0000 0002');
    await checkout.getByRole('button', { name: `Pay ${formatDollars(3200)}` }).click();
    await checkout.getByTestId('checkout-error').getByText('Your card was declined.').waitFor();
    expect(buyerPage.url()).toContain('/sandbox-checkout/');
    await fillCard(checkout, '4242 4242 4242 4242');
    await snap(buyerPage, 'payments-checkout');
    const desktop = buyerPage.viewportSize();
    await buyerPage.setViewportSize(PHONE);
    expect(await sidewaysOverflow(buyerPage)).toBeLessThanOrEqual(0);
    await snap(buyerPage, 'payments-checkout-phone');
    if (desktop) await buyerPage.setViewportSize(desktop);
    await checkout.getByRole('button', { name: `Pay ${formatDollars(3200)}` }).click();

    await buyerPage.waitForURL(/\/payment-success\?session_id=cs_sbx_[0-9a-f]{24}&invoice_id=[0-9a-f-]{36}$/, { timeout: 15_000 });
    const success = buyerPage.getByTestId('payment-success');
    await success.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await success.getByText('Payment Complete', { exact: true }).waitFor();
    await success.getByText(title, { exact: true }).waitFor();
    await success.getByText(formatDollars(3200), { exact: true }).waitFor();
    await snap(buyerPage, 'payments-success');
    const invoice = await invoiceOf(buyer, listing.id);
    expect(invoice.status).toBe('payment_authorized');

    // The seller has set up payouts (the sandbox's onboarding, D22), so the release reaches them at once.
    const link = await apiCall<{ url: string }>('POST', '/user/payout-account/onboarding', undefined, seller.token);
    expect((await apiCall('POST', `/sandbox/payout-onboarding/${new URL(link.body.url).pathname.split('/').pop()}/complete`, {}, seller.token)).status).toBe(200);

    // The admin sees the hold awaiting capture with its deadline, and releases it.
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const adminPage = await adminContext.newPage();
    pages.push(adminPage);
    await logInAsAdmin(adminPage);
    await adminPage.waitForURL(/\/dashboard/);
    const tabs = adminPage.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link');
    await eventually(async () => expect(await tabs.allTextContents()).toEqual(['Overview', 'Users', 'Listings', 'Transactions', 'Payments', 'Ledger', 'Analytics', 'Settings', 'Audit', 'Profile']));
    await tabs.filter({ hasText: 'Payments' }).click();
    const row = adminPage.getByTestId('admin-payment-row').filter({ hasText: title });
    await row.getByTestId('admin-payment-status').getByText('Awaiting Capture', { exact: true }).waitFor();
    await row.getByText(invoice.invoice_number).waitFor();
    expect(await row.getByTestId('hold-expires-soon').count()).toBe(0);
    await adminPage.getByTestId('admin-payments-totals').getByText(/Awaiting capture: \d+/).waitFor();
    await snap(adminPage, 'payments-admin-tab');
    await adminPage.setViewportSize(PHONE);
    expect(await sidewaysOverflow(adminPage)).toBeLessThanOrEqual(0);
    await snap(adminPage, 'payments-admin-tab-phone');
    await adminPage.setViewportSize({ width: 1280, height: 900 });

    // The admin confirms in the page's own dialog (focus inside it, Escape cancels), never a browser prompt.
    await row.getByRole('button', { name: 'Release Funds' }).click();
    const confirm = adminPage.getByRole('dialog', { name: 'Release funds' });
    const question = await confirm.innerText();
    await snap(adminPage, 'payments-admin-release-confirm');
    await confirm.getByRole('button', { name: 'Release Funds' }).click();
    await confirm.waitFor({ state: 'detached' });
    const message = adminPage.getByTestId('admin-payment-message');
    await message.getByText('✅ Payment captured successfully!').waitFor();
    expect(question).toContain(`Release ${formatDollars(3200)} to the seller for "${title}"`);
    expect(await message.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(21, 128, 61)');
    await row.getByTestId('admin-payment-status').getByText('Captured / Funds Released', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Release Funds' }).count()).toBe(0);
    await snap(adminPage, 'payments-admin-released');

    // The buyer's invoice is paid: Completed, nothing left to pay.
    await buyerPage.goto(`${baseUrl()}/dashboard?tab=invoices`);
    const invoiceRow = buyerPage.getByTestId('invoice-row').filter({ hasText: title });
    await invoiceRow.getByTestId('invoice-status').getByText('Paid', { exact: true }).waitFor();
    await invoiceRow.getByText('Completed', { exact: true }).waitFor();
    expect((await invoiceOf(buyer, listing.id)).status).toBe('paid');
  });

  it('a won auction paid from the Invoices tab dialog: 4000…0002 is declined, and the invoice offers Retry Payment', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('declseller');
    const buyer = await registerAccount('declbuyer');
    const title = `Harbour webcam ${tag}`;
    const listing = await openSale(seller, { title, starting_price: '2100' });
    await bidViaApi(buyer, listing.id, 2100);
    await moveSaleEnd(listing.id, '2 seconds');
    const won = await eventually(async () => {
      const found = await invoiceOf(buyer, listing.id);
      expect(found.status).toBe('pending');
      return found;
    }, 20_000);

    const page = await open(buyer);
    await page.goto(`${baseUrl()}/dashboard?tab=invoices`);
    const invoiceRow = page.getByTestId('invoice-row').filter({ hasText: title });
    await invoiceRow.getByRole('button', { name: `Pay ${won.invoice_number}` }).click();
    // Its title follows the payment's state, so the dialog is found by role and its title checked apart.
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Secure Payment' }).waitFor();
    await dialog.getByText('TEST MODE', { exact: true }).waitFor();
    await dialog.getByText(won.invoice_number, { exact: true }).waitFor();
    await dialog.getByText(/^[0-9a-f-]{20}…$/).waitFor();
    const pay = dialog.getByRole('button', { name: `Pay ${formatDollars(2100)} Securely` });
    await pay.waitFor();
    expect(await pay.isEnabled()).toBe(true);
    await snap(page, 'payments-dialog');

    // Closed and opened again, the open payment is continued: the 409's text, the same payment id, a usable form.
    const paymentId = await dialog.getByText(/^[0-9a-f-]{20}…$/).textContent();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await invoiceRow.getByRole('button', { name: `Continue Payment ${won.invoice_number}` }).click();
    await dialog.getByRole('heading', { name: 'Continue Payment' }).waitFor();
    await dialog.getByTestId('payment-message').getByText('A payment for this invoice is already in progress. You can complete the existing payment below.').waitFor();
    expect(await dialog.getByText(/^[0-9a-f-]{20}…$/).textContent()).toBe(paymentId);
    await pay.waitFor();
    expect(await pay.isEnabled()).toBe(true);

    await fillCard(dialog, '4000 0000 0000 0002');
    await pay.click();
    const message = dialog.getByTestId('payment-message');
    await message.getByText('Your card was declined.').waitFor();
    expect(await message.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(185, 28, 28)');
    await dialog.getByRole('heading', { name: 'Previous Payment Failed' }).waitFor();
    await dialog.getByTestId('payment-status-badge').getByText('Payment Failed', { exact: true }).waitFor();
    await snap(page, 'payments-dialog-declined');
    expect((await invoiceOf(buyer, listing.id)).status).toBe('payment_failed');

    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await invoiceRow.getByRole('button', { name: `Retry Payment ${won.invoice_number}` }).waitFor();
    await invoiceRow.getByText('Payment Failed', { exact: true }).waitFor();

    // Retry Payment reopens the same payment for another card; at 390 px the dialog fits the screen.
    await page.setViewportSize(PHONE);
    await invoiceRow.getByRole('button', { name: `Retry Payment ${won.invoice_number}` }).click();
    const retry = page.getByRole('dialog');
    await retry.getByRole('heading', { name: 'Previous Payment Failed' }).waitFor();
    await retry.getByRole('button', { name: `Pay ${formatDollars(2100)} Securely` }).waitFor();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    const box = await retry.boundingBox();
    expect(box && box.height <= PHONE.height * 0.9 + 1).toBe(true);
    await snap(page, 'payments-dialog-phone');

    // 4000 0027 6000 3184 asks for a verification step first; then the funds are held and the form gives way.
    await fillCard(retry, '4000 0027 6000 3184');
    await retry.getByRole('button', { name: `Pay ${formatDollars(2100)} Securely` }).click();
    await retry.getByRole('button', { name: 'Complete verification' }).click();
    await retry.getByTestId('payment-success-box').waitFor();
    await retry.getByRole('heading', { name: 'Payment Completed' }).waitFor();
    await retry.getByTestId('payment-status-badge').getByText('Payment Authorized - Funds Held', { exact: true }).waitFor();
    expect(await retry.getByLabel('Card number').count()).toBe(0);
    await snap(page, 'payments-dialog-authorized-phone');
    await page.keyboard.press('Escape');
    await retry.waitFor({ state: 'detached' });
    await invoiceRow.getByTestId('invoice-status').getByText('Payment Authorized', { exact: true }).waitFor();
    expect((await invoiceOf(buyer, listing.id)).status).toBe('payment_authorized');
  });

  it('the result pages: a cancelled checkout offers another try, and the success page needs its parameters', async () => {
    const page = await open(await registerAccount('resultbuyer'));
    await page.goto(`${baseUrl()}/payment-cancel?invoice_id=00000000-0000-4000-8000-000000000001`);
    const cancelled = page.getByTestId('payment-cancelled');
    await cancelled.getByRole('heading', { name: 'Payment Cancelled' }).waitFor();
    await cancelled.getByText('No charges have been made to your account.').waitFor();
    expect(await cancelled.getByRole('link', { name: 'Try Payment Again' }).getAttribute('href')).toBe('/dashboard?tab=invoices&pay=00000000-0000-4000-8000-000000000001');
    expect(await cancelled.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toBe('/contact');
    await snap(page, 'payments-cancel');
    await page.goto(`${baseUrl()}/payment-cancel`);
    await page.getByRole('link', { name: 'Back to Dashboard' }).waitFor();
    expect(await page.getByRole('link', { name: 'Try Payment Again' }).count()).toBe(0);

    await page.goto(`${baseUrl()}/payment-success?invoice_id=00000000-0000-4000-8000-000000000001`);
    await page.getByRole('heading', { name: 'Payment Verification Issue' }).waitFor();
    await page.getByText('Missing payment information').waitFor();
    // An invoice that is not the viewer's cannot be verified.
    await page.goto(`${baseUrl()}/payment-success?session_id=cs_sbx_000000000000000000000000&invoice_id=00000000-0000-4000-8000-000000000001`);
    await page.getByText('Unable to verify payment. Please contact support if you were charged.').waitFor();
    await snap(page, 'payments-verification-issue');
  });
});
