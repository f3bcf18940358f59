import type { ReactElement } from 'react';
import { TEST_MODE_NOTICE, type InvoiceDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { invoicesApi } from '../../api/invoices.api';
import { api } from '../../lib/api';
import { InvoiceRow } from './InvoiceRow';
import { InvoicesTab } from './InvoicesTab';
import { FUNDS_HELD, FUNDS_RELEASED_SELLER, NO_INVOICES_TEXT, SELLING_FREE } from './invoices';
import { PaymentDialog } from './PaymentDialog';
import { renderStatic, visibleText } from '../../testing/static-render';

// Jest has no CSS transform: the style sheets the components import are empty here.
jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('./invoices.css', () => ({}));
jest.mock('../../components/form/form-fields.css', () => ({}));
jest.mock('../../components/payments/payments.css', () => ({}));
jest.mock('../../components/reviews/reviews.css', () => ({}));

const render = (element: ReactElement, store: AppStore = createStore(), url = '/dashboard?tab=invoices') => renderStatic(element, store, url);
const text = visibleText;


const NOW = new Date('2026-11-22T12:00:00Z');

const buyerInvoice: InvoiceDto = {
  id: 'inv-1',
  invoice_number: 'INV-2026-000042',
  sale_type: 'buy_now',
  role: 'buyer',
  listing_id: 'listing-1',
  website_title: 'Heron watching blog',
  website_url: 'https://heron.example.com',
  total_amount: 4500,
  status: 'pending',
  due_date: '2026-11-29T12:00:00Z',
  pay_by: null,
  created_at: '2026-11-22T11:00:00Z',
  paid_at: null,
  buyer: { id: 'u-ann', username: 'ann_buyer' },
  seller: { id: 'u-sam', username: 'sam_seller' },
  success_fee_percent: null,
  success_fee: null,
  payout: null,
  can_pay: true,
  can_mark_paid: false,
  test_mode: false,
  transfer: { started_at: null, received_at: null, verified_at: null },
  dispute: null,
  can_mark_transfer_started: false,
  can_confirm_received: false,
  can_dispute: false,
  cancel_reason: null,
  escrow: { captured_at: null, release_due_at: null, payout_status: null },
};

const sellerInvoice: InvoiceDto = {
  ...buyerInvoice,
  id: 'inv-2',
  invoice_number: 'INV-2026-000043',
  role: 'seller',
  sale_type: 'auction_win',
  website_title: 'Tea shop',
  listing_id: 'listing-2',
  total_amount: 3000,
  success_fee_percent: 5,
  success_fee: 150,
  payout: 2850,
  can_pay: false,
  can_mark_paid: true,
};

const stores: AppStore[] = [];
// Resetting the API state also stops the timers that would drop unused cache entries a minute later.
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function storeWithInvoices(invoices: InvoiceDto[]): Promise<AppStore> {
  const store = createStore();
  stores.push(store);
  await store.dispatch(invoicesApi.util.upsertQueryData('invoices', undefined, { invoices }));
  return store;
}

describe('Invoices tab', () => {
  it('shows the loading state before the invoices arrive', () => {
    expect(text(render(<InvoicesTab />))).toContain('Loading your invoices...');
  });

  it('shows the empty state with a Browse Websites link', async () => {
    const html = render(<InvoicesTab />, await storeWithInvoices([]));
    expect(text(html)).toContain('Invoices (0)');
    expect(text(html)).toContain(NO_INVOICES_TEXT);
    expect(html).toMatch(/<a class="btn btn-primary" href="\/browse"[^>]*>Browse Websites<\/a>/);
  });

  it('lists buyer and seller invoices with their numbers, amounts and roles', async () => {
    const page = text(render(<InvoicesTab />, await storeWithInvoices([buyerInvoice, sellerInvoice])));
    expect(page).toContain('Invoices (2)');
    expect(page).toContain('Heron watching blog INV-2026-000042 Buyer Buy now Pending');
    expect(page).toContain('Tea shop INV-2026-000043 Seller Auction win Pending');
    expect(page).toContain('$4,500');
    expect(page).toContain('$3,000');
    expect(page).not.toContain(NO_INVOICES_TEXT);
  });

  it('highlights the invoice named by ?pay={id} and no other', async () => {
    const html = render(<InvoicesTab />, await storeWithInvoices([buyerInvoice, sellerInvoice]), '/dashboard?tab=invoices&pay=inv-1');
    expect(html).toMatch(/<li id="invoice-inv-1" class="card invoice-row invoice-row-highlighted" data-testid="invoice-row" data-highlighted="true"/);
    expect(html).toMatch(/<li id="invoice-inv-2" class="card invoice-row" data-testid="invoice-row">/);
    expect(html.match(/data-highlighted/g)).toHaveLength(1);
  });

  it('says so when ?pay names an invoice that is not the viewer’s', async () => {
    const page = text(render(<InvoicesTab />, await storeWithInvoices([buyerInvoice]), '/dashboard?tab=invoices&pay=inv-9'));
    expect(page).toContain('The invoice in this link is not among yours.');
  });
});

describe('InvoiceRow', () => {
  const row = (invoice: InvoiceDto, extra: Partial<Parameters<typeof InvoiceRow>[0]> = {}) => render(<InvoiceRow invoice={invoice} now={NOW} {...extra} />);

  it('links the website to its listing and offers the PDF to everyone', () => {
    const html = row(buyerInvoice);
    expect(html).toMatch(/<a href="\/listing\/listing-1"[^>]*>Heron watching blog<\/a>/);
    expect(html).toContain('aria-label="Download PDF of INV-2026-000042"');
    expect(row(sellerInvoice)).toContain('aria-label="Download PDF of INV-2026-000043"');
  });

  it('says no real money moved on a test-mode invoice (ADR 0033), and nothing of the kind otherwise', () => {
    expect(text(row({ ...buyerInvoice, test_mode: true }))).toContain(TEST_MODE_NOTICE);
    expect(row({ ...sellerInvoice, test_mode: true })).toContain('data-testid="invoice-test-mode"');
    expect(row(buyerInvoice)).not.toContain('TEST MODE');
  });

  it('gives the buyer the pay button of each payable status', () => {
    const buttons: Array<[InvoiceDto['status'], string]> = [
      ['pending', 'Pay'],
      ['overdue', 'Pay'],
      ['awaiting_payment', 'Continue Payment'],
      ['payment_failed', 'Retry Payment'],
      ['payment_canceled', 'Retry Payment'],
    ];
    for (const [status, label] of buttons) {
      expect(row({ ...buyerInvoice, status })).toMatch(new RegExp(`<button type="button" class="btn btn-primary btn-tiny" aria-label="${label} INV-2026-000042">${label}</button>`));
    }
  });

  it('tells the buyer the funds are held once authorised, and Completed once paid, without a pay button', () => {
    const held = text(row({ ...buyerInvoice, status: 'payment_authorized', can_pay: false }));
    expect(held).toContain(FUNDS_HELD);
    expect(held).toContain('Payment Authorized');
    const paid = row({ ...buyerInvoice, status: 'paid', can_pay: false, paid_at: '2026-11-24T10:00:00Z' });
    expect(text(paid)).toContain('Completed');
    expect(paid).not.toMatch(/>(Pay|Continue Payment|Retry Payment)</);
  });

  it('flags an overdue invoice', () => {
    const html = row({ ...buyerInvoice, status: 'overdue', due_date: '2026-11-20T12:00:00Z' });
    expect(html).toMatch(/<p class="invoice-due invoice-due-overdue">Due [^<]+\(overdue\)<\/p>/);
    expect(row(buyerInvoice)).not.toContain('invoice-due-overdue');
  });

  it('shows the seller the fee with its percent, the payout and Mark Paid, and no pay button', () => {
    const html = row(sellerInvoice);
    expect(text(html)).toContain('Fee Success fee (5%): $150');
    expect(text(html)).toContain('Payout $2,850');
    expect(text(html)).toContain('Buyer: ann_buyer');
    expect(html).toContain('aria-label="Mark INV-2026-000043 paid">Mark Paid</button>');
    expect(html).not.toMatch(/>Pay</);
  });

  it('says selling is free when the fee is 0 (D10), and hides Mark Paid when the server does not allow it', () => {
    const html = row({ ...sellerInvoice, success_fee_percent: 0, success_fee: 0, payout: 3000, can_mark_paid: false, status: 'awaiting_payment' });
    expect(text(html)).toContain(SELLING_FREE);
    expect(text(html)).toContain('Payout $3,000');
    expect(html).not.toContain('Mark Paid');
  });

  it('shows the buyer neither fee nor payout', () => {
    const page = text(row(buyerInvoice));
    expect(page).not.toContain('Payout');
    expect(page).toContain('Seller: sam_seller');
  });

  it('disables Mark Paid and the PDF button while they run, and shows a row notice', () => {
    expect(row(sellerInvoice, { busy: 'mark_paid' })).toMatch(/<button[^>]*disabled=""[^>]*>Marking...<\/button>/);
    expect(row(sellerInvoice, { busy: 'pdf' })).toMatch(/<button[^>]*disabled=""[^>]*>Downloading...<\/button>/);
    const html = row(sellerInvoice, { notice: { kind: 'error', text: 'Failed to mark invoice as paid. Please try again.' } });
    expect(html).toContain('role="alert">Failed to mark invoice as paid. Please try again.<');
  });
});

describe('InvoiceRow escrow (D22)', () => {
  const row = (invoice: InvoiceDto) => render(<InvoiceRow invoice={invoice} now={NOW} />);

  it('tells the buyer the payment is held in escrow by Site Market and when it goes to the seller', () => {
    const html = row({
      ...buyerInvoice,
      status: 'payment_authorized',
      can_pay: false,
      escrow: { captured_at: '2026-11-23T10:00:00Z', release_due_at: '2026-11-27T10:00:00Z', payout_status: null },
    });
    const page = text(html);
    expect(page).toContain('Your payment is held in escrow by Site Market.');
    expect(page).toMatch(/Released to the seller on .+ unless you open a dispute before the inspection period ends\./);
  });

  it("shows the seller's payout waiting for their account, with a link to Payouts that names the amount", () => {
    const html = row({ ...sellerInvoice, status: 'payment_authorized', can_mark_paid: false, escrow: { captured_at: '2026-11-23T10:00:00Z', release_due_at: null, payout_status: 'waiting_for_account' } });
    expect(html).toMatch(/data-testid="invoice-payout-status"[^>]*>Waiting for your payout account</);
    expect(html).toMatch(/<a data-testid="invoice-setup-payouts" href="\/dashboard\?tab=payouts"[^>]*>Set up payouts to receive \$2,850<\/a>/);
    // The funds are no longer waiting for the transfer: the side says they were released.
    expect(text(html)).toContain(FUNDS_RELEASED_SELLER);
    expect(text(html)).not.toContain(FUNDS_HELD);
  });

  it('says nothing of escrow on an unpaid invoice', () => {
    expect(row(buyerInvoice)).not.toContain('invoice-escrow');
  });
});

describe('PaymentDialog', () => {
  it('opens on the invoice with the spinner while the payment is created, and no card form yet', () => {
    const html = render(<PaymentDialog invoice={buyerInvoice} onClose={() => undefined} />);
    expect(html).toContain('role="dialog"');
    expect(html).toContain('class="modal card payment-dialog"');
    const page = text(html);
    expect(page).toContain('Secure Payment');
    expect(page).toContain('Website Heron watching blog');
    expect(page).toContain('Invoice INV-2026-000042');
    expect(page).toContain('Status Pending');
    expect(page).toContain('Amount $4,500');
    expect(page).toContain('Initializing secure payment...');
    expect(page).toContain('held securely in escrow');
    expect(html).not.toMatch(/<(input|form)/);
    expect(html).toMatch(/<button[^>]*>Close<\/button>/);
  });

  it('names a failed invoice’s banner in red from the start', () => {
    const html = render(<PaymentDialog invoice={{ ...buyerInvoice, status: 'payment_failed' }} onClose={() => undefined} />);
    expect(text(html)).toContain('Previous Payment Failed');
    expect(html).toContain('data-tone="error"');
  });
});
