import type { DisputeDto, InvoiceDto } from '@market/contracts';
import { createStore } from '../../testing/test-store';
import { renderStatic, visibleText } from '../../testing/static-render';
import { TransferPanel } from './TransferPanel';
import { disputeRequest, disputeSummary, DISPUTE_REASON_OPTIONS, showsTransfer, validateDispute } from './transfer';

jest.mock('./invoices.css', () => ({}));

const held: InvoiceDto = {
  id: 'inv-1',
  invoice_number: 'INV-2026-000042',
  sale_type: 'buy_now',
  role: 'buyer',
  listing_id: 'listing-1',
  website_title: 'Heron watching blog',
  website_url: null,
  total_amount: 4500,
  status: 'payment_authorized',
  due_date: '2026-11-29T12:00:00Z',
  pay_by: null,
  created_at: '2026-11-22T11:00:00Z',
  paid_at: null,
  buyer: { id: 'u-ann', username: 'ann_buyer' },
  seller: { id: 'u-sam', username: 'sam_seller' },
  success_fee_percent: null,
  success_fee: null,
  payout: null,
  can_pay: false,
  can_mark_paid: false,
  test_mode: false,
  transfer: { started_at: null, received_at: null, verified_at: null },
  dispute: null,
  can_mark_transfer_started: false,
  can_confirm_received: false,
  can_dispute: true,
  cancel_reason: null,
  escrow: { captured_at: null, release_due_at: null, payout_status: null },
};
const dispute: DisputeDto = {
  id: 'd-1',
  status: 'open',
  reason: 'site_not_received',
  reason_label: 'I have not received the site',
  message: 'Nothing arrived after a week of waiting.',
  opened_at: '2026-11-23T10:00:00Z',
  outcome: null,
  resolution_note: null,
  closed_at: null,
};
const noop = () => undefined;
const panel = (invoice: InvoiceDto) =>
  visibleText(renderStatic(<TransferPanel invoice={invoice} busy={false} onMarkStarted={noop} onConfirmReceived={noop} onDispute={noop} />, createStore(), '/dashboard'));

describe('transfer checklist (ADR 0039)', () => {
  it('shows only while funds are held, or once something happened', () => {
    expect(showsTransfer({ ...held, status: 'pending' })).toBe(false);
    expect(showsTransfer(held)).toBe(true);
    expect(showsTransfer({ ...held, status: 'paid', transfer: { started_at: '2026-11-23T10:00:00Z', received_at: null, verified_at: null } })).toBe(true);
    expect(panel({ ...held, status: 'pending' })).toBe('');
  });

  it("offers each party only its own steps, as the server's flags say", () => {
    const buyer = panel(held);
    expect(buyer).toContain('Seller started the transfer Waiting for the seller');
    expect(buyer).toContain('Open a dispute');
    expect(buyer).not.toContain('Mark transfer started');
    const seller = panel({ ...held, role: 'seller', can_dispute: false, can_mark_transfer_started: true });
    expect(seller).toContain('Mark transfer started');
    expect(seller).not.toContain('Open a dispute');
    const ready = panel({ ...held, transfer: { started_at: '2026-11-23T10:00:00Z', received_at: null, verified_at: null }, can_confirm_received: true });
    expect(ready).toContain('I have received the site');
    expect(ready).toContain('Buyer received the site Waiting for the buyer');
  });

  it("shows an open dispute with the buyer's words, and a decided one with the admin's note", () => {
    expect(panel({ ...held, status: 'disputed', can_dispute: false, dispute })).toContain('“Nothing arrived after a week of waiting.”');
    const closed = { ...dispute, status: 'closed' as const, outcome: 'refunded' as const, resolution_note: 'The seller never handed it over.', closed_at: '2026-11-24T10:00:00Z' };
    const seen = panel({ ...held, status: 'payment_canceled', can_dispute: false, dispute: closed });
    expect(seen).toContain('Dispute closed: an admin refunded your payment.');
    expect(seen).toContain("Admin's note: The seller never handed it over.");
    expect(disputeSummary(closed, 'seller')).toBe('Dispute closed: an admin refunded the buyer.');
    expect(disputeSummary({ ...closed, outcome: 'released' }, 'seller')).toBe('Dispute closed: an admin released the payment to you.');
    expect(disputeSummary(dispute, 'seller')).toContain('The buyer disputed this transfer: I have not received the site.');
  });

  it('checks the dialog as the server does', () => {
    expect(DISPUTE_REASON_OPTIONS.map((o) => o.value)).toContain('other');
    expect(validateDispute({ reason: '', message: 'short' })).toEqual({ reason: 'Choose what went wrong', message: 'Describe the problem in at least 20 characters' });
    expect(validateDispute({ reason: 'other', message: 'x'.repeat(2001) })).toEqual({ message: 'Keep the description under 2000 characters' });
    expect(validateDispute({ reason: 'other', message: '   The hosting login never came.  ' })).toEqual({});
    expect(disputeRequest({ reason: 'other', message: '  The hosting login never came. ' })).toEqual({ reason: 'other', message: 'The hosting login never came.' });
  });
});
