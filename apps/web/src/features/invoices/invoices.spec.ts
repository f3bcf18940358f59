import { INVOICE_STATUSES, type InvoiceDto, type MarkPaidResponse } from '@market/contracts';
import {
  buyerSide,
  dueLine,
  MARK_PAID_FAILED,
  markPaidConfirmText,
  PDF_FAILED,
  payByLine,
  payTarget,
  pdfFilename,
  performMarkPaid,
  performPdfDownload,
  saleTypeLabel,
  SELLING_FREE,
  sellerFigures,
  statusBadge,
} from './invoices';

const NOW = new Date('2026-11-22T12:00:00Z');

const invoice: InvoiceDto = {
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

describe('statusBadge', () => {
  it('gives every status a readable label', () => {
    const labels = INVOICE_STATUSES.map((status) => statusBadge(status).label);
    expect(labels).toEqual(['Pending', 'Overdue', 'Paid', 'Payment Failed', 'Awaiting Payment', 'Payment Canceled', 'Payment Authorized', 'Disputed', 'Cancelled']);
    for (const label of labels) expect(label).not.toContain('_');
  });
  it('colours trouble red and done green, and shows an unknown status as sent', () => {
    expect(statusBadge('overdue').tone).toBe('red');
    expect(statusBadge('payment_failed').tone).toBe('red');
    expect(statusBadge('paid').tone).toBe('green');
    expect(statusBadge('refunded')).toEqual({ label: 'refunded', tone: 'gray' });
  });
});

describe('saleTypeLabel', () => {
  it('names the three sale types', () => {
    expect(saleTypeLabel('auction_win')).toBe('Auction win');
    expect(saleTypeLabel('accepted_offer')).toBe('Accepted offer');
    expect(saleTypeLabel('buy_now')).toBe('Buy now');
    expect(saleTypeLabel('barter')).toBe('barter');
  });
});

describe('buyerSide (SPEC §4)', () => {
  it('offers Pay, Continue Payment or Retry Payment on the payable statuses', () => {
    expect(buyerSide({ status: 'pending', can_pay: true })).toEqual({ kind: 'pay', label: 'Pay' });
    expect(buyerSide({ status: 'overdue', can_pay: true })).toEqual({ kind: 'pay', label: 'Pay' });
    expect(buyerSide({ status: 'awaiting_payment', can_pay: true })).toEqual({ kind: 'pay', label: 'Continue Payment' });
    expect(buyerSide({ status: 'payment_failed', can_pay: true })).toEqual({ kind: 'pay', label: 'Retry Payment' });
    expect(buyerSide({ status: 'payment_canceled', can_pay: true })).toEqual({ kind: 'pay', label: 'Retry Payment' });
  });
  it('says the funds are held once authorised, Completed once paid, and nothing when the server says it cannot be paid', () => {
    expect(buyerSide({ status: 'payment_authorized', can_pay: false })).toEqual({ kind: 'held' });
    expect(buyerSide({ status: 'paid', can_pay: false })).toEqual({ kind: 'completed' });
    expect(buyerSide({ status: 'pending', can_pay: false })).toEqual({ kind: 'none' });
  });
});

describe('dueLine', () => {
  it('shows the due date, flagged once an unpaid invoice is past it', () => {
    expect(dueLine(invoice, NOW, 'en-US')).toEqual({ text: 'Due Nov 29, 2026', overdue: false });
    const late = dueLine(invoice, new Date('2026-12-01T00:00:00Z'), 'en-US');
    expect(late).toEqual({ text: 'Due Nov 29, 2026 (overdue)', overdue: true });
    expect(dueLine({ ...invoice, status: 'overdue' }, NOW, 'en-US').overdue).toBe(true);
  });
  it('does not flag funds already held, and shows when a paid invoice was paid', () => {
    expect(dueLine({ ...invoice, status: 'payment_authorized' }, new Date('2026-12-01T00:00:00Z')).overdue).toBe(false);
    expect(dueLine({ ...invoice, status: 'paid', paid_at: '2026-11-24T10:00:00Z' }, NOW, 'en-US')).toEqual({ text: 'Paid Nov 24, 2026', overdue: false });
  });
});

describe('sellerFigures (D10)', () => {
  it('shows the fee with its percent and the payout, cents included', () => {
    expect(sellerFigures({ total_amount: 4750, success_fee_percent: 5, success_fee: 237.5, payout: 4512.5 })).toEqual({
      fee: 'Success fee (5%): $237.50',
      payout: '$4,512.50',
    });
    expect(sellerFigures({ total_amount: 1000, success_fee_percent: 2.5, success_fee: 25, payout: 975 }).fee).toBe('Success fee (2.5%): $25');
  });
  it('says selling is free when the fee is 0', () => {
    expect(sellerFigures({ total_amount: 4500, success_fee_percent: 0, success_fee: 0, payout: 4500 })).toEqual({ fee: SELLING_FREE, payout: '$4,500' });
  });
});

describe('pdfFilename', () => {
  it('names the file after the invoice number (SPEC §7)', () => {
    expect(pdfFilename(invoice)).toBe('INV-2026-000042.pdf');
    expect(pdfFilename({ invoice_number: 'INV/2026 01' })).toBe('INV_2026_01.pdf');
  });
});

describe('performMarkPaid', () => {
  const answer: MarkPaidResponse = { message: 'Invoice marked as paid', invoice: { ...invoice, status: 'paid' } };

  it('asks first, naming the invoice, the buyer and the amount, and sends nothing when declined', async () => {
    const send = jest.fn(async () => answer);
    let asked = '';
    const outcome = await performMarkPaid(invoice, { confirm: (text) => ((asked = text), false), send });
    expect(outcome).toBeNull();
    expect(send).not.toHaveBeenCalled();
    expect(asked).toBe(markPaidConfirmText(invoice));
    expect(asked).toContain('INV-2026-000042');
    expect(asked).toContain('"Heron watching blog" ($4,500)');
    expect(asked).toContain("ann_buyer's payment");
  });
  it('reports the server message, or the SPEC §8 text on failure', async () => {
    expect(await performMarkPaid(invoice, { confirm: () => true, send: async () => answer })).toEqual({ kind: 'success', text: 'Invoice marked as paid' });
    const failed = await performMarkPaid(invoice, {
      confirm: () => true,
      send: async () => {
        throw { status: 400, data: { detail: 'Only pending invoices can be marked paid' } };
      },
    });
    expect(failed).toEqual({ kind: 'error', text: MARK_PAID_FAILED });
  });
});

describe('performPdfDownload', () => {
  it('saves the file under the invoice number and frees the URL', async () => {
    const save = jest.fn();
    const revoke = jest.fn();
    expect(await performPdfDownload(invoice, { fetchUrl: async () => 'blob:pdf-1', save, revoke })).toBeNull();
    expect(save).toHaveBeenCalledWith('blob:pdf-1', 'INV-2026-000042.pdf');
    expect(revoke).toHaveBeenCalledWith('blob:pdf-1');
  });
  it('says so when the PDF cannot be fetched', async () => {
    const save = jest.fn();
    const outcome = await performPdfDownload(invoice, {
      fetchUrl: async () => {
        throw { status: 404, data: { detail: 'Invoice not found' } };
      },
      save,
      revoke: jest.fn(),
    });
    expect(outcome).toEqual({ kind: 'error', text: PDF_FAILED });
    expect(save).not.toHaveBeenCalled();
  });
});

describe('payTarget (?pay={id})', () => {
  const rows = [invoice, { ...invoice, id: 'inv-2', status: 'paid' as const, can_pay: false }, { ...invoice, id: 'inv-3', role: 'seller' as const }];

  it('finds the invoice and opens its pay dialog only when the viewer buys it and can pay it now', () => {
    expect(payTarget(rows, 'inv-1')).toEqual({ kind: 'found', invoice, openDialog: true });
    expect(payTarget(rows, 'inv-2')).toMatchObject({ kind: 'found', openDialog: false });
    expect(payTarget(rows, 'inv-3')).toMatchObject({ kind: 'found', openDialog: false });
  });
  it('tells a link to someone else’s invoice apart from no link at all', () => {
    expect(payTarget(rows, 'inv-9')).toEqual({ kind: 'missing' });
    expect(payTarget(rows, null)).toBeNull();
  });
});

describe('payByLine (ADR 0043)', () => {
  it('says when an unpaid invoice must be paid, nothing once paid or held, and that a lapsed sale was cancelled', () => {
    const window = { pay_by: '2026-11-27T12:00:00Z' };
    expect(payByLine({ status: 'pending', ...window }, 'en-US')).toMatch(/^Pay by Nov 27, 2026, \d{1,2}:00/);
    expect(payByLine({ status: 'payment_failed', ...window }, 'en-US')).toMatch(/^Pay by /);
    expect(payByLine({ status: 'payment_authorized', ...window }, 'en-US')).toBeNull();
    expect(payByLine({ status: 'paid', ...window }, 'en-US')).toBeNull();
    expect(payByLine({ status: 'pending', pay_by: null }, 'en-US')).toBeNull();
    expect(payByLine({ status: 'cancelled', ...window }, 'en-US')).toMatch(/^Sale cancelled/);
  });

  it('says why a cancelled sale ended (ADR 0043, D22)', () => {
    const cancelled = (cancel_reason: InvoiceDto['cancel_reason']) => payByLine({ status: 'cancelled', pay_by: null, cancel_reason });
    expect(cancelled('unpaid')).toBe('Sale cancelled: it was not paid in time');
    expect(cancelled('admin_cancelled')).toBe('Sale cancelled by an admin');
    expect(cancelled('refunded')).toBe('Sale cancelled: the payment was refunded to the buyer');
    expect(cancelled(null)).toMatch(/^Sale cancelled/);
  });
});
