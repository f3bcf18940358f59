import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { InvoiceDto, InvoicesResponse } from '@market/contracts';
import { formatDollars } from '@market/domain';
import { eventually } from '@market/server-kit/testing';
import { adminToken, apiCall, registerAccount, type ApiAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { sql } from './support/database';
import { bidViaApi, loggedInPage, moveSaleEnd, openSale, sidewaysOverflow, waitForListingStatus } from './support/sales';

const PHONE = { width: 390, height: 844 };
const FUNDS_HELD = 'Funds held until the domain transfer is verified';

const invoiceRow = (page: Page, title: string) => page.getByTestId('invoice-row').filter({ hasText: title });

/** Opens the Invoices tab and waits until it has loaded `count` invoices. */
async function openInvoices(page: Page, count: number): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?tab=invoices`);
  await page.getByRole('heading', { name: `Invoices (${count})` }).waitFor();
}

/** Screenshots the page at desktop width and at 390 px, where nothing may scroll sideways. */
async function snapBothWidths(page: Page, name: string): Promise<void> {
  await snap(page, name);
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await snap(page, `${name}-phone`);
  if (desktop) await page.setViewportSize(desktop);
}

/** Sets the success fee (D10) through the admin API; the other settings stay as they are. */
async function setSuccessFee(percent: number): Promise<void> {
  const token = await adminToken();
  const { body } = await apiCall<Record<string, unknown>>('GET', '/admin/settings', undefined, token);
  const { smtp_password_set: _set, ...settings } = body;
  const saved = await apiCall('POST', '/admin/settings', { ...settings, smtp_password: '', success_fee: percent }, token);
  if (saved.status !== 200 && saved.status !== 201) throw new Error(`settings: ${saved.status} ${JSON.stringify(saved.body)}`);
}

/** The account's invoice for a listing, as the API shows it to them. */
async function invoiceOf(account: ApiAccount, listingId: string): Promise<InvoiceDto> {
  const { body } = await apiCall<InvoicesResponse>('GET', '/invoices', undefined, account.token);
  const invoice = body.invoices.find((row) => row.listing_id === listingId);
  if (!invoice) throw new Error(`${account.username} has no invoice for ${listingId}`);
  return invoice;
}

describe('buy now, the checkout, the invoice and marking it paid', () => {
  let browser: Browser;
  const pages: Page[] = [];
  const open = async (account: ApiAccount) => {
    const page = await loggedInPage(browser, account);
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

  it('a buyer buys a fixed-price site from its page and pays on the checkout page; the seller sees fee, payout and held funds and downloads the PDF', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('buyseller');
    const buyer = await registerAccount('buybuyer');
    const title = `Heron watching blog ${tag}`;
    // A 5% success fee, in force when the invoice is made (D10); put back to free afterwards.
    await setSuccessFee(5);
    try {
      const listing = await openSale(seller, { title, listing_type: 'fixed', starting_price: '4500' });

      // The buyer confirms on the listing page; a double click still buys once.
      const buyerPage = await open(buyer);
      await buyerPage.goto(`${baseUrl()}/listing/${listing.id}`);
      await buyerPage.getByRole('button', { name: 'Buy Now' }).click();
      const confirm = buyerPage.getByRole('dialog', { name: 'Confirm purchase' });
      await confirm.getByText(`Buy "${title}" now for ${formatDollars(4500)}?`).waitFor();
      await snap(buyerPage, 'buy-now-confirm');
      await confirm.getByRole('button', { name: `Buy for ${formatDollars(4500)}` }).dblclick();

      // Buy-now answers with the hosted checkout (SPEC §4's first outcome), on the site's own origin.
      await buyerPage.waitForURL(/\/sandbox-checkout\/cs_sbx_[0-9a-f]{24}\?invoice_id=[0-9a-f-]{36}$/, { timeout: 15_000 });
      const invoiceId = new URL(buyerPage.url()).searchParams.get('invoice_id');
      const bought = await invoiceOf(buyer, listing.id);
      expect(invoiceId).toBe(bought.id);
      expect(bought).toMatchObject({ role: 'buyer', sale_type: 'buy_now', total_amount: 4500, status: 'awaiting_payment', can_pay: true });
      const [{ count }] = await sql<{ count: string }>('SELECT count(*) FROM billing.invoices WHERE listing_id = $1', [listing.id]);
      expect(Number(count)).toBe(1);

      const checkout = buyerPage.getByTestId('sandbox-checkout');
      await checkout.getByText('TEST MODE', { exact: false }).first().waitFor();
      await checkout.getByRole('heading', { name: title }).waitFor();
      await checkout.getByLabel('Amount to pay').getByText(formatDollars(4500), { exact: true }).waitFor();
      await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
      await checkout.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await checkout.getByLabel('CVC').fill('123');
      await snap(buyerPage, 'buy-now-checkout');
      await checkout.getByRole('button', { name: `Pay ${formatDollars(4500)}` }).click();

      await buyerPage.waitForURL(/\/payment-success\?session_id=cs_sbx_[0-9a-f]{24}&invoice_id=[0-9a-f-]{36}$/, { timeout: 15_000 });
      const success = buyerPage.getByTestId('payment-success');
      await success.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      await success.getByText(bought.invoice_number, { exact: true }).waitFor();
      // The card number went nowhere near an address.
      expect(buyerPage.url()).not.toContain('4242');
      expect((await invoiceOf(buyer, listing.id)).status).toBe('payment_authorized');

      // ?pay={id} still finds and marks the invoice; held funds leave nothing to pay, so no dialog opens.
      await buyerPage.goto(`${baseUrl()}/dashboard?tab=invoices&pay=${bought.id}`);
      const highlighted = buyerPage.locator('[data-testid="invoice-row"][data-highlighted="true"]');
      await highlighted.getByText(title).waitFor();
      expect(await highlighted.count()).toBe(1);
      // Marked so that it shows: the ring in the site's blue, not only an attribute.
      expect(await highlighted.evaluate((row) => getComputedStyle(row).borderTopColor)).toBe('rgb(29, 78, 216)');
      expect(await buyerPage.getByRole('dialog').count()).toBe(0);
      const buyerRow = invoiceRow(buyerPage, title);
      for (const label of [bought.invoice_number, 'Buyer', 'Buy now', 'Payment Authorized', `Seller: ${seller.username}`, FUNDS_HELD]) {
        await buyerRow.getByText(label, { exact: true }).waitFor();
      }
      await buyerRow.getByLabel('Invoice total').getByText(formatDollars(4500), { exact: true }).waitFor();
      expect(await buyerRow.getByText('Payout').count()).toBe(0);
      expect(await buyerRow.getByRole('button', { name: /^(Pay|Continue Payment|Retry Payment) / }).count()).toBe(0);
      await snapBothWidths(buyerPage, 'invoices-buyer');

      await waitForListingStatus(listing.id, 'sold');

      // The seller sees the fee, the payout and that the funds are held; nothing to mark paid; downloads the PDF.
      const sellerPage = await open(seller);
      await openInvoices(sellerPage, 1);
      const sellerRow = invoiceRow(sellerPage, title);
      await sellerRow.getByText('Seller', { exact: true }).waitFor();
      await sellerRow.getByText(`Buyer: ${buyer.username}`, { exact: true }).waitFor();
      await sellerRow.getByTestId('invoice-fee').getByText(`Success fee (5%): ${formatDollars(225)}`, { exact: true }).waitFor();
      await sellerRow.getByTestId('invoice-payout').getByText(formatDollars(4275), { exact: true }).waitFor();
      await sellerRow.getByText(FUNDS_HELD, { exact: true }).waitFor();
      expect(await sellerRow.getByRole('button', { name: /^(Pay|Continue Payment|Retry Payment) / }).count()).toBe(0);
      expect(await sellerRow.getByRole('button', { name: /^Mark .* paid$/ }).count()).toBe(0);
      await snapBothWidths(sellerPage, 'invoices-seller');

      const [download] = await Promise.all([
        sellerPage.waitForEvent('download'),
        sellerRow.getByRole('button', { name: `Download PDF of ${bought.invoice_number}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${bought.invoice_number}.pdf`);
      const file = await download.path();
      expect((await readFile(file)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    } finally {
      await setSuccessFee(0);
    }
  });

  it('the seller marks an auction win paid (no card payment started), and the buyer sees it Completed', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('markseller');
    const buyer = await registerAccount('markbuyer');
    const title = `Lighthouse photos ${tag}`;
    const listing = await openSale(seller, { title, starting_price: '1500' });
    await bidViaApi(buyer, listing.id, 1500);
    // The sale closes within a sweep of its end; the win makes a pending invoice (D10).
    await moveSaleEnd(listing.id, '2 seconds');
    const won = await eventually(async () => {
      const invoice = await invoiceOf(buyer, listing.id);
      expect(invoice.status).toBe('pending');
      return invoice;
    }, 20_000);
    expect(won).toMatchObject({ sale_type: 'auction_win', total_amount: 1500 });

    const sellerPage = await open(seller);
    await openInvoices(sellerPage, 1);
    const sellerRow = invoiceRow(sellerPage, title);
    let confirmText = '';
    sellerPage.once('dialog', (question) => {
      confirmText = question.message();
      void question.accept();
    });
    await sellerRow.getByRole('button', { name: `Mark ${won.invoice_number} paid` }).click();
    await sellerRow.getByText('Invoice marked as paid').waitFor();
    await sellerRow.getByTestId('invoice-status').getByText('Paid', { exact: true }).waitFor();
    await sellerRow.getByText('Completed', { exact: true }).waitFor();
    expect(confirmText).toContain(`Mark invoice ${won.invoice_number} for "${title}" (${formatDollars(1500)}) as paid?`);
    expect(await sellerRow.getByRole('button', { name: /^Mark .* paid$/ }).count()).toBe(0);
    await snapBothWidths(sellerPage, 'invoices-seller-paid');

    // The buyer sees it Completed, with nothing left to pay.
    const buyerPage = await open(buyer);
    await openInvoices(buyerPage, 1);
    const buyerRow = invoiceRow(buyerPage, title);
    await buyerRow.getByText('Completed', { exact: true }).waitFor();
    await buyerRow.getByTestId('invoice-status').getByText('Paid', { exact: true }).waitFor();
    expect(await buyerRow.getByRole('button', { name: /^(Pay|Continue Payment|Retry Payment) / }).count()).toBe(0);
    await snapBothWidths(buyerPage, 'invoices-buyer-completed');
  });

  it('sends a guest who clicks Buy Now to the login page, and tells a buyer who has nothing yet where to look', async () => {
    const seller = await registerAccount('guestseller');
    const listing = await openSale(seller, { title: `Kite shop ${randomBytes(3).toString('hex')}`, listing_type: 'fixed', starting_price: '900' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const guest = await context.newPage();
      await guest.goto(`${baseUrl()}/listing/${listing.id}`);
      await guest.getByRole('button', { name: 'Buy Now' }).click();
      await guest.waitForURL(`${baseUrl()}/login`);
    } finally {
      await context.close();
    }

    const newcomer = await open(await registerAccount('newbuyer'));
    await openInvoices(newcomer, 0);
    await newcomer.getByText('No invoices yet.').waitFor();
    expect(await newcomer.getByRole('link', { name: 'Browse Websites' }).getAttribute('href')).toBe('/browse');
    await snapBothWidths(newcomer, 'invoices-empty');
  });
});
