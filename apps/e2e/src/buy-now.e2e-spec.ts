import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { InvoiceDto, InvoicesResponse } from '@market/contracts';
import { formatDollars } from '@market/domain';
import { adminToken, apiCall, registerAccount, type ApiAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { sql } from './support/database';
import { loggedInPage, openSale, sidewaysOverflow, waitForListingStatus } from './support/sales';

const PHONE = { width: 390, height: 844 };
const PAYMENTS_SOON = 'Card payments open soon: your invoice stays payable until then.';

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

describe('buy now, the invoice and marking it paid', () => {
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

  it('a buyer buys a fixed-price site from its page, pays from the invoice, the seller sees fee and payout, downloads the PDF and marks it paid', async () => {
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
      await buyerPage.getByTestId('buy-now-outcome').getByText('Taking you to your invoice...').waitFor();
      await snap(buyerPage, 'buy-now-bought');

      // After 2 s the page goes to the invoice: highlighted, with the pay dialog open.
      await buyerPage.waitForURL(/\/dashboard\?tab=invoices&pay=[0-9a-f-]{36}$/, { timeout: 10_000 });
      const invoiceId = new URL(buyerPage.url()).searchParams.get('pay');
      const bought = await invoiceOf(buyer, listing.id);
      expect(invoiceId).toBe(bought.id);
      expect(bought).toMatchObject({ role: 'buyer', sale_type: 'buy_now', total_amount: 4500, status: 'pending', can_pay: true });
      const [{ count }] = await sql<{ count: string }>('SELECT count(*) FROM billing.invoices WHERE listing_id = $1', [listing.id]);
      expect(Number(count)).toBe(1);

      const dialog = buyerPage.getByRole('dialog', { name: `Pay invoice ${bought.invoice_number}` });
      await dialog.getByText(PAYMENTS_SOON).waitFor();
      await dialog.getByText(formatDollars(4500)).waitFor();
      const highlighted = buyerPage.locator('[data-testid="invoice-row"][data-highlighted="true"]');
      expect(await highlighted.count()).toBe(1);
      await highlighted.getByText(title).waitFor();
      // Marked so that it shows: the ring in the site's blue, not only an attribute.
      expect(await highlighted.evaluate((row) => getComputedStyle(row).borderTopColor)).toBe('rgb(29, 78, 216)');
      await snap(buyerPage, 'invoices-buyer-pay-dialog');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      const buyerRow = invoiceRow(buyerPage, title);
      for (const label of [bought.invoice_number, 'Buyer', 'Buy now', 'Pending', `Seller: ${seller.username}`]) {
        await buyerRow.getByText(label, { exact: true }).waitFor();
      }
      await buyerRow.getByLabel('Invoice total').getByText(formatDollars(4500), { exact: true }).waitFor();
      expect(await buyerRow.getByText('Payout').count()).toBe(0);
      // The Pay button opens the same honest dialog again.
      await buyerRow.getByRole('button', { name: `Pay ${bought.invoice_number}` }).click();
      await buyerPage.getByRole('dialog').getByText(PAYMENTS_SOON).waitFor();
      await buyerPage.keyboard.press('Escape');
      await buyerPage.getByRole('dialog').waitFor({ state: 'detached' });
      await snapBothWidths(buyerPage, 'invoices-buyer');

      await waitForListingStatus(listing.id, 'sold');

      // The seller sees the fee and the payout, downloads the PDF and marks the invoice paid.
      const sellerPage = await open(seller);
      await openInvoices(sellerPage, 1);
      const sellerRow = invoiceRow(sellerPage, title);
      await sellerRow.getByText('Seller', { exact: true }).waitFor();
      await sellerRow.getByText(`Buyer: ${buyer.username}`, { exact: true }).waitFor();
      await sellerRow.getByTestId('invoice-fee').getByText(`Success fee (5%): ${formatDollars(225)}`, { exact: true }).waitFor();
      await sellerRow.getByTestId('invoice-payout').getByText(formatDollars(4275), { exact: true }).waitFor();
      expect(await sellerRow.getByRole('button', { name: /^(Pay|Continue Payment|Retry Payment) / }).count()).toBe(0);
      await snapBothWidths(sellerPage, 'invoices-seller');

      const [download] = await Promise.all([
        sellerPage.waitForEvent('download'),
        sellerRow.getByRole('button', { name: `Download PDF of ${bought.invoice_number}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${bought.invoice_number}.pdf`);
      const file = await download.path();
      expect((await readFile(file)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

      let confirmText = '';
      sellerPage.once('dialog', (question) => {
        confirmText = question.message();
        void question.accept();
      });
      await sellerRow.getByRole('button', { name: `Mark ${bought.invoice_number} paid` }).click();
      await sellerRow.getByText('Invoice marked as paid').waitFor();
      await sellerRow.getByTestId('invoice-status').getByText('Paid', { exact: true }).waitFor();
      await sellerRow.getByText('Completed', { exact: true }).waitFor();
      expect(confirmText).toContain(`Mark invoice ${bought.invoice_number} for "${title}" (${formatDollars(4500)}) as paid?`);
      expect(await sellerRow.getByRole('button', { name: /^Mark .* paid$/ }).count()).toBe(0);
      await snapBothWidths(sellerPage, 'invoices-seller-paid');

      // The buyer sees it Completed, with nothing left to pay.
      await openInvoices(buyerPage, 1);
      await buyerRow.getByText('Completed', { exact: true }).waitFor();
      await buyerRow.getByTestId('invoice-status').getByText('Paid', { exact: true }).waitFor();
      expect(await buyerRow.getByRole('button', { name: /^(Pay|Continue Payment|Retry Payment) / }).count()).toBe(0);
      await snapBothWidths(buyerPage, 'invoices-buyer-completed');
    } finally {
      await setSuccessFee(0);
    }
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
