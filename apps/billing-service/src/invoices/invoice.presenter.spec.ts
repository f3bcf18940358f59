import { INVOICE_STATUSES, type PublicProfile } from '@market/contracts';
import { INVOICE_STATES } from '@market/domain';
import { presentInvoice, UNKNOWN_USER } from './invoice.presenter';
import { TEST_MODE_NOTICE } from '@market/contracts';
import { invoiceFileName, invoicePdfDefinition, renderInvoicePdf } from './invoice-pdf';
import type { InvoiceRecord } from './invoices.repository';

const record = (overrides: Partial<InvoiceRecord> = {}): InvoiceRecord => ({
  id: '11111111-1111-4111-8111-111111111111',
  invoice_number: 'INV-2026-000042',
  bid_id: 'bid',
  listing_id: 'listing',
  buyer_id: 'buyer',
  seller_id: 'seller',
  website_title: 'Café recipes — Рецепты',
  website_url: 'https://recipes.example.com',
  sale_type: 'buy_now',
  amount_cents: 499_900,
  success_fee_percent: 2.5,
  fee_cents: 12_498,
  payout_cents: 487_402,
  status: 'pending',
  due_date: new Date('2026-03-08T10:00:00.000Z'),
  created_at: new Date('2026-03-01T10:00:00.000Z'),
  paid_at: null,
  transfer_started_at: null,
  transfer_received_at: null,
  transfer_verified_at: null,
  release_started_at: null,
  refund_started_at: null,
  pay_by: new Date('2026-03-03T10:00:00.000Z'),
  cancelled_at: null,
  cancel_reason: null,
  cancel_note: null,
  ...overrides,
});
const names = new Map<string, PublicProfile>([
  ['buyer', { id: 'buyer', username: 'bob', name: 'Bob', verified: false } as PublicProfile],
  ['seller', { id: 'seller', username: 'sam', name: 'Sam', verified: true } as PublicProfile],
]);

describe('invoice presenter', () => {
  it('knows the same statuses as the contracts', () => {
    expect([...INVOICE_STATES]).toEqual([...INVOICE_STATUSES]);
  });

  it('offers each transfer step and the dispute to its own party only, in the right state (ADR 0039)', () => {
    const held = record({ status: 'payment_authorized' });
    const seller = presentInvoice(held, 'seller', names, false);
    const buyer = presentInvoice(held, 'buyer', names, false);
    expect([seller.can_mark_transfer_started, seller.can_confirm_received, seller.can_dispute]).toEqual([true, false, false]);
    expect([buyer.can_mark_transfer_started, buyer.can_confirm_received, buyer.can_dispute]).toEqual([false, false, true]);
    const started = record({ status: 'payment_authorized', transfer_started_at: new Date('2026-03-02T10:00:00.000Z') });
    expect(presentInvoice(started, 'seller', names, false).can_mark_transfer_started).toBe(false);
    expect(presentInvoice(started, 'buyer', names, false)).toMatchObject({
      can_confirm_received: true,
      transfer: { started_at: '2026-03-02T10:00:00.000Z', received_at: null },
    });
    const releasing = record({ status: 'payment_authorized', release_started_at: new Date() });
    expect(presentInvoice(releasing, 'buyer', names, false).can_dispute).toBe(false);
    const disputed = presentInvoice(record({ status: 'disputed', transfer_started_at: new Date() }), 'buyer', names, false);
    expect([disputed.can_confirm_received, disputed.can_dispute, disputed.can_pay]).toEqual([false, false, false]);
    expect(presentInvoice(record(), 'buyer', names, false)).toMatchObject({ can_dispute: false, can_confirm_received: false, dispute: null });
  });

  it('shows the buyer the amount and the pay button, never the fee', () => {
    expect(presentInvoice(record(), 'buyer', names, false)).toEqual({
      id: '11111111-1111-4111-8111-111111111111',
      invoice_number: 'INV-2026-000042',
      sale_type: 'buy_now',
      role: 'buyer',
      listing_id: 'listing',
      website_title: 'Café recipes — Рецепты',
      website_url: 'https://recipes.example.com',
      total_amount: 4999,
      status: 'pending',
      due_date: '2026-03-08T10:00:00.000Z',
      pay_by: '2026-03-03T10:00:00.000Z',
      created_at: '2026-03-01T10:00:00.000Z',
      paid_at: null,
      buyer: { id: 'buyer', username: 'bob' },
      seller: { id: 'seller', username: 'sam' },
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
      // Nothing is held for an unpaid invoice, so nothing is in escrow or due for release (D22).
      cancel_reason: null,
      escrow: { captured_at: null, release_due_at: null, payout_status: null },
    });
  });

  it('shows the seller the fee in force at creation and the payout in dollars and cents, and Mark Paid while pending', () => {
    expect(presentInvoice(record(), 'seller', names, false)).toMatchObject({ role: 'seller', success_fee_percent: 2.5, success_fee: 124.98, payout: 4874.02, can_pay: false, can_mark_paid: true });
    expect(presentInvoice(record({ status: 'overdue' }), 'seller', names, false)).toMatchObject({ can_mark_paid: false });
    expect(presentInvoice(record({ status: 'paid' }), 'buyer', names, false)).toMatchObject({ can_pay: false });
    expect(presentInvoice(record(), 'admin', names, false)).toMatchObject({ role: 'seller', success_fee: 124.98, can_pay: false, can_mark_paid: false });
  });

  it('names a party the auth service could not name', () => {
    expect(presentInvoice(record(), 'buyer', new Map(), false).seller).toEqual({ id: 'seller', username: UNKNOWN_USER });
  });
});

describe('invoice PDF', () => {
  it('is a PDF named after the invoice number, titled with it, for buyer and seller views alike', async () => {
    expect(invoiceFileName(record())).toBe('INV-2026-000042.pdf');
    for (const viewer of ['buyer', 'seller'] as const) {
      const pdf = await renderInvoicePdf(presentInvoice(record({ status: 'paid', paid_at: new Date() }), viewer, names, false));
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1')).toContain('Invoice INV-2026-000042');
      expect(pdf.length).toBeGreaterThan(5000);
    }
  });

  it("prints the seller's payout as the transfer that paid it, or where it stands (D22)", () => {
    const moneyRows = (dto: ReturnType<typeof presentInvoice>) =>
      (JSON.parse(JSON.stringify(invoicePdfDefinition(dto).content)) as { table?: { body: { text: string }[][] } }[])
        .flatMap((part) => part.table?.body ?? [])
        .map((cells) => cells.map((cell) => cell.text).join(': '));
    const paidAt = new Date('2026-12-05T10:00:00Z');
    const paid = presentInvoice(record({ status: 'paid', paid_at: paidAt }), 'seller', names, false, null, { captured_at: paidAt, payout_status: 'paid', inspection_days: 3 });
    expect(moneyRows(paid)).toEqual(expect.arrayContaining(['Payout to seller: $4,874.02', expect.stringMatching(/^Payout: Sent to the seller's payout account on /)]));
    const held = presentInvoice(record({ status: 'payment_authorized' }), 'seller', names, false);
    expect(moneyRows(held)).toContain('Payout: Held in escrow until the transfer is verified');
    const waiting = presentInvoice(record({ status: 'payment_authorized' }), 'seller', names, false, null, { captured_at: paidAt, payout_status: 'waiting_for_account', inspection_days: 3 });
    expect(moneyRows(waiting)).toContain("Payout: Released; waiting for the seller's payout account");
    // The buyer's copy has no payout at all.
    expect(moneyRows(presentInvoice(record({ status: 'paid', paid_at: paidAt }), 'buyer', names, false)).some((line) => line.startsWith('Payout'))).toBe(false);
  });

  it('says, under its title and in its title, that no real money moved when the sandbox runs the payments (ADR 0033)', async () => {
    const test = presentInvoice(record({ status: 'paid', paid_at: new Date() }), 'buyer', names, true);
    expect(test.test_mode).toBe(true);
    const content = invoicePdfDefinition(test).content as Array<{ text?: string }>;
    expect(content.slice(0, 3).map((part) => part.text)).toEqual(['INVOICE', 'INV-2026-000042', TEST_MODE_NOTICE]);
    expect(TEST_MODE_NOTICE).toMatch(/No real money moved/);
    expect((await renderInvoicePdf(test)).toString('latin1')).toContain('TEST MODE Invoice INV-2026-000042');

    const real = presentInvoice(record(), 'buyer', names, false);
    expect(JSON.stringify(invoicePdfDefinition(real))).not.toContain('TEST MODE');
  });
});
