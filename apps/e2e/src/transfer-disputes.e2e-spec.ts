import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { EmailLogEntry } from '@market/contracts';
import { formatDollars } from '@market/domain';
import { eventually } from '@market/server-kit/testing';
import { adminToken, apiCall, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { logInAsAdmin } from './support/journey';
import { DESKTOP, invoiceOf, invoiceRow, PHONE, snapBoth } from './support/invoices';
import { loggedInPage, openSale, waitForListingStatus } from './support/sales';

const MESSAGE = 'The domain moved, but the hosting login and the newsletter list never arrived.';
const NOTE = 'The seller could not show the hosting and list were handed over, so the buyer is refunded.';

describe('transfer checklist and a dispute resolved by refund (ADR 0039)', () => {
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await Promise.all(pages.map((page) => page.context().close()));
    await browser?.close();
  });

  it('buyer pays with 4242, seller starts the transfer, buyer disputes, seller is emailed, admin refunds with a note, both see it', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('dispseller');
    const buyer = await registerAccount('dispbuyer');
    const title = `Kestrel forum ${tag}`;
    const listing = await openSale(seller, { title, listing_type: 'fixed', starting_price: '2800' });

    // The buyer buys now and pays on the sandbox checkout with 4242: the funds are held.
    const buyerPage = await loggedInPage(browser, buyer, DESKTOP);
    pages.push(buyerPage);
    await buyerPage.goto(`${baseUrl()}/listing/${listing.id}`);
    await buyerPage.getByRole('button', { name: 'Buy Now' }).click();
    await buyerPage.getByRole('dialog', { name: 'Confirm purchase' }).getByRole('button', { name: `Buy for ${formatDollars(2800)}` }).click();
    await buyerPage.waitForURL(/\/sandbox-checkout\//, { timeout: 15_000 });
    const checkout = buyerPage.getByTestId('sandbox-checkout');
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
    await checkout.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await checkout.getByLabel('CVC').fill('123');
    await checkout.getByRole('button', { name: `Pay ${formatDollars(2800)}` }).click();
    await buyerPage.waitForURL(/\/payment-success\?/, { timeout: 15_000 });
    await buyerPage.getByTestId('payment-success').getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect((await invoiceOf(buyer, listing.id)).status).toBe('payment_authorized');

    // The seller marks the transfer started from their invoice.
    const sellerPage = await loggedInPage(browser, seller, DESKTOP);
    pages.push(sellerPage);
    let sellerRow = await invoiceRow(sellerPage, title);
    await sellerRow.getByRole('button', { name: /^Mark transfer of INV-\d{4}-\d{6} started$/ }).click();
    await sellerRow.getByText('Transfer marked as started.', { exact: false }).waitFor();
    await sellerRow.getByTestId('transfer-started').getByText(/^Done /).waitFor();
    expect(await sellerRow.getByRole('button', { name: /Mark transfer/ }).count()).toBe(0);
    await snapBoth(sellerPage, 'transfer-seller-started');

    // The buyer sees the seller's step, and opens a dispute with a reason and a message.
    let buyerRow = await invoiceRow(buyerPage, title);
    await buyerRow.getByTestId('transfer-started').getByText(/^Done /).waitFor();
    await buyerRow.getByRole('button', { name: /^I have received the site of / }).waitFor();
    await snapBoth(buyerPage, 'transfer-buyer-before-dispute');
    await buyerRow.getByRole('button', { name: /^Open a dispute about / }).click();
    const dialog = buyerPage.getByRole('dialog', { name: 'Open a dispute' });
    // Too short a message is refused in the form, before anything is sent.
    await dialog.getByLabel('What went wrong?').selectOption('access_incomplete');
    await dialog.getByLabel('Describe the problem').fill('Not all of it.');
    await dialog.getByRole('button', { name: 'Open dispute' }).click();
    await dialog.getByText('Describe the problem in at least 20 characters').waitFor();
    await dialog.getByLabel('Describe the problem').fill(MESSAGE);
    await snap(buyerPage, 'dispute-dialog');
    await buyerPage.setViewportSize(PHONE);
    await snap(buyerPage, 'dispute-dialog-375', { fullPage: false });
    await buyerPage.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Open dispute' }).click();
    await dialog.waitFor({ state: 'detached' });
    await buyerRow.getByTestId('invoice-status').getByText('Disputed', { exact: true }).waitFor();
    await buyerRow.getByTestId('invoice-dispute').getByText(`“${MESSAGE}”`).waitFor();
    expect(await buyerRow.getByRole('button', { name: /^I have received the site/ }).count()).toBe(0);
    await snapBoth(buyerPage, 'transfer-buyer-disputed');

    // The seller is emailed once about it (D19), with the buyer's words.
    const admin = await adminToken();
    const mail = await eventually(async () => {
      const { body } = await apiCall<{ emails: EmailLogEntry[] }>('GET', '/admin/emails', undefined, admin);
      const found = body.emails.filter((email) => email.kind === 'dispute_opened_seller' && email.to_address === seller.email);
      expect(found).toHaveLength(1);
      return found[0];
    }, 20_000);
    expect(mail.subject).toBe(`The buyer disputed the transfer of "${title}"`);
    expect(mail.text_body).toContain(MESSAGE);

    // The admin sees the disputed hold with its checklist and refunds it with a note.
    const adminContext = await browser.newContext({ viewport: DESKTOP });
    const adminPage = await adminContext.newPage();
    pages.push(adminPage);
    await logInAsAdmin(adminPage);
    await adminPage.waitForURL(/\/dashboard/);
    await adminPage.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Payments' }).click();
    const paymentRow = adminPage.getByTestId('admin-payment-row').filter({ hasText: title });
    await paymentRow.getByTestId('admin-payment-disputed').waitFor();
    await paymentRow.getByTestId('admin-payment-transfer').getByText(/^Started /).waitFor();
    expect(await paymentRow.getByRole('button', { name: 'Release Funds' }).count()).toBe(0);
    await snapBoth(adminPage, 'admin-payments-disputed');
    await paymentRow.getByRole('button', { name: 'Resolve dispute' }).click();
    const resolve = adminPage.getByRole('dialog', { name: 'Resolve dispute' });
    await resolve.getByText(MESSAGE, { exact: false }).waitFor();
    // The note is required.
    await resolve.getByLabel('Refund the buyer').check();
    await resolve.getByRole('button', { name: 'Resolve dispute' }).click();
    await resolve.getByText('Write a note of at least 10 characters explaining the decision').waitFor();
    await resolve.getByLabel('Note to both parties').fill(NOTE);
    await snap(adminPage, 'admin-resolve-dialog');
    await resolve.getByRole('button', { name: 'Resolve dispute' }).click();
    const message = adminPage.getByTestId('admin-payment-message');
    await message.getByText('✅ Dispute resolved: the buyer was refunded.').waitFor();
    expect(await message.getAttribute('class')).toContain('alert-success');
    await paymentRow.getByTestId('admin-payment-dispute-outcome').getByText('Dispute refunded to buyer').waitFor();
    await snapBoth(adminPage, 'admin-payments-resolved');

    // Both sides see the outcome and the note.
    buyerRow = await invoiceRow(buyerPage, title);
    // The refund ends the sale (D22): the invoice is cancelled and the listing goes back on sale.
    await buyerRow.getByTestId('invoice-status').getByText('Cancelled', { exact: true }).waitFor();
    await buyerRow.getByText(/^Sale cancelled: the payment was refunded/).waitFor();
    await buyerRow.getByText('Dispute closed: an admin refunded your payment.').waitFor();
    await buyerRow.getByTestId('dispute-note').getByText(NOTE, { exact: false }).waitFor();
    await snapBoth(buyerPage, 'transfer-buyer-refunded');
    sellerRow = await invoiceRow(sellerPage, title);
    await sellerRow.getByText('Dispute closed: an admin refunded the buyer.').waitFor();
    await sellerRow.getByTestId('dispute-note').getByText(NOTE, { exact: false }).waitFor();
    await snapBoth(sellerPage, 'transfer-seller-refunded');
    const final = await invoiceOf(buyer, listing.id);
    expect(final).toMatchObject({ status: 'cancelled', cancel_reason: 'refunded', can_pay: false, dispute: { status: 'closed', outcome: 'refunded', resolution_note: NOTE } });
    await waitForListingStatus(listing.id, 'active', 20_000);
  });
});
