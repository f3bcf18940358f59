import type { DataSource } from 'typeorm';
import type { Actor, EventName } from '@market/contracts';
import { outboxPayload, type TestDatabase } from '@market/server-kit/testing';
import { card, heldSale, member, onboard, openBillingDatabase, saleInvoice, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';
import { ledgerState } from '../testing/ledger-checks';

const DAY = 24 * 3600_000;
const admin: Actor = { user_id: '00000000-0000-4000-8000-00000000a001', role: 'admin' };

describe('escrow past the card hold and payouts to the seller (D22)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let b: BillingUnderTest;
  // Payloads as billing wrote them, their sealed fields read back (ADR 0066).
  const outbox = async (name: EventName, invoiceId: string): Promise<{ payload: Record<string, unknown> }[]> => {
    const rows: { payload: Record<string, unknown> }[] = await ds.query(`SELECT payload FROM outbox WHERE name = $1 AND payload->>'invoice_id' = $2 ORDER BY seq`, [name, invoiceId]);
    return Promise.all(rows.map(async (row) => ({ payload: await outboxPayload(ds, name, row.payload) })));
  };
  const intentOf = async (intentId: string) => (await ds.query('SELECT status, captured_at, refunded_at FROM payment_intents WHERE id = $1', [intentId]))[0];
  const transfersOf = (invoiceId: string): Promise<{ id: string; amount_cents: string }[]> =>
    ds.query('SELECT id, amount_cents FROM sandbox_transfers WHERE transfer_group = $1', [invoiceId]);

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing_escrow'));
    b = wireBilling(ds);
  });
  afterEach(() => {
    b.clock.ahead = 0;
    b.settings.down = false;
    b.settings.value = { ...b.settings.value, inspection_days: 3 };
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('captures the hold into escrow when the seller starts the transfer, and the invoice stays held', async () => {
    const sale = await heldSale(b);
    expect((await intentOf(sale.intentId)).status).toBe('requires_capture');
    const started = await b.transfer.markTransferStarted(sale.seller, sale.invoice.id);
    expect(started.invoice.status).toBe('payment_authorized');
    expect(started.invoice.escrow.captured_at).not.toBeNull();
    expect((await intentOf(sale.intentId)).status).toBe('succeeded');
    const row = (await b.payments.adminList(admin)).payment_intents.find((p) => p.id === sale.intentId);
    expect(row?.held_in_escrow_since).toBe(started.invoice.escrow.captured_at);
    expect(row?.payout).toBeNull();
    expect((await b.invoices.findById(sale.invoice.id))?.paid_at).toBeNull();
    expect(await outbox('payment.captured', sale.invoice.id)).toHaveLength(1);
    // The capture's ledger transaction: the hold left the card for the platform's balance, less the provider's fee.
    const trail = await b.ledger.forInvoice(sale.invoice.id);
    expect(trail.map((t) => t.kind)).toEqual(['authorization', 'capture']);
    const fee = Math.floor((120_000 * 29 + 500) / 1000) + 30;
    expect(trail[1].entries.map((e) => [e.account, Number(e.amount_cents)])).toEqual([
      ['card_holds', -120_000],
      ['platform_balance', 120_000 - fee],
      ['provider_fees', fee],
    ]);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true });
  });

  it('captures a hold no one touched a lead before its 7-day deadline, never earlier, on one sweep at a time', async () => {
    const sale = await heldSale(b);
    const lead = b.config.ESCROW_CAPTURE_LEAD_HOURS * 3600_000;
    b.clock.ahead = 7 * DAY - lead - 60_000;
    await b.escrowSweep.sweep();
    expect((await intentOf(sale.intentId)).status).toBe('requires_capture');
    b.clock.ahead = 7 * DAY - lead + 60_000;
    const runs = await Promise.all([b.escrowSweep.sweep(), b.escrowSweep.sweep()]);
    expect((await intentOf(sale.intentId)).status).toBe('succeeded');
    expect(runs[0]).toBe(runs[1]);
    // Past the hold's own deadline the funds are safe in escrow: the hold sweep finds nothing to lapse.
    expect(await b.holdSweep.sweep(new Date(Date.now() + 8 * DAY))).toBe(0);
    expect((await b.invoices.findById(sale.invoice.id))?.status).toBe('payment_authorized');
  });

  it('makes a release to a seller without a payout account wait, tells them once, and pays when the account is enabled', async () => {
    const sale = await heldSale(b);
    const released = await b.payments.capture(admin, sale.intentId, { reason: 'Domain transfer verified by admin' });
    expect(released.message).toMatch(/waits for the seller's payout account/);
    expect(released.payment_intent.payout).toMatchObject({ status: 'waiting_for_account', net: 1140, fee: 60, seller_account_status: 'not_started' });
    expect((await b.invoices.findById(sale.invoice.id))?.status).toBe('payment_authorized');
    expect(await transfersOf(sale.invoice.id)).toHaveLength(0);
    expect(await outbox('payout.waiting', sale.invoice.id)).toHaveLength(1);
    // The same Release Funds again is the same release: no second payout, no second notice.
    await b.payments.capture(admin, sale.intentId, {});
    expect(await outbox('payout.waiting', sale.invoice.id)).toHaveLength(1);
    expect((await b.payouts.sellerPayouts(sale.seller)).payouts).toEqual([expect.objectContaining({ status: 'waiting_for_account', gross: 1200, fee: 60, net: 1140 })]);

    // Onboarding not finished: still waiting.
    await onboard(b, sale.seller, 'pending_verification');
    expect((await b.accounts.get(sale.seller)).status).toBe('pending_verification');
    expect(await transfersOf(sale.invoice.id)).toHaveLength(0);
    const done = await onboard(b, sale.seller);
    expect(done.account).toEqual({ status: 'enabled', requirements_due: [] });
    const [transfer] = await transfersOf(sale.invoice.id);
    expect(Number(transfer.amount_cents)).toBe(114_000);
    const invoice = await b.invoices.findById(sale.invoice.id);
    expect(invoice).toMatchObject({ status: 'paid' });
    expect(invoice?.paid_at).not.toBeNull();
    const [sent] = await outbox('payout.sent', sale.invoice.id);
    expect(sent.payload).toMatchObject({ gross: 1200, fee: 60, net: 1140, seller_id: sale.seller.user_id });
    const payouts = await b.payouts.sellerPayouts(sale.seller);
    expect(payouts.balance).toEqual({ in_escrow: 0, paid_out: 1140, fees: 60 });
    expect(payouts.payouts[0]).toMatchObject({ status: 'paid', gross: 1200, fee: 60, net: 1140 });
    expect((await b.ledger.forInvoice(sale.invoice.id)).map((t) => t.kind)).toEqual(['authorization', 'capture', 'release', 'payout']);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true, payablesMatchUnsentPayouts: true });
  });

  it('refuses a release to a restricted account and keeps the money held', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller, 'restricted');
    expect((await b.accounts.get(sale.seller)).status).toBe('restricted');
    await expect(b.payments.capture(admin, sale.intentId, {})).rejects.toMatchObject({ status: 409, detail: expect.stringMatching(/restricted.*stay held/) });
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toBeNull();
    expect((await b.invoices.findById(sale.invoice.id))?.status).toBe('payment_authorized');
  });

  it('releases by itself once the transfer is verified and the inspection period ends with no dispute', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    await b.transfer.markTransferStarted(sale.seller, sale.invoice.id);
    const received = await b.transfer.confirmReceived(sale.buyer, sale.invoice.id);
    expect(received.message).toMatch(/3-day inspection period/);
    const due = new Date(received.invoice.escrow.release_due_at as string).getTime();
    expect(due - new Date(received.invoice.transfer.received_at as string).getTime()).toBe(3 * DAY);
    b.clock.ahead = 3 * DAY - 60_000;
    await b.escrowSweep.sweep();
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toBeNull();
    // An admin's longer inspection period is honoured; settings that cannot be read release nothing.
    b.clock.ahead = 3 * DAY + 60_000;
    b.settings.value = { ...b.settings.value, inspection_days: 5 };
    await b.escrowSweep.sweep();
    b.settings.value = { ...b.settings.value, inspection_days: 3 };
    b.settings.down = true;
    await b.escrowSweep.sweep();
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toBeNull();
    b.settings.down = false;
    await b.escrowSweep.sweep();
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toMatchObject({ status: 'paid', released_by: 'inspection' });
    expect((await b.invoices.findById(sale.invoice.id))?.status).toBe('paid');
  });

  it('never releases a disputed sale by itself, and a buyer who confirmed receipt cannot say the site never came', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    await b.transfer.markTransferStarted(sale.seller, sale.invoice.id);
    await b.transfer.confirmReceived(sale.buyer, sale.invoice.id);
    await expect(b.transfer.openDispute(sale.buyer, sale.invoice.id, { reason: 'site_not_received', message: 'The site never arrived in my hosting account.' })).rejects.toMatchObject({
      status: 409,
      detail: expect.stringMatching(/confirmed that you received the site/),
    });
    await b.transfer.openDispute(sale.buyer, sale.invoice.id, { reason: 'access_incomplete', message: 'The Stripe account and the domain were not handed over.' });
    b.clock.ahead = 10 * DAY;
    await b.escrowSweep.sweep();
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toBeNull();
    await expect(b.payments.capture(admin, sale.intentId, {})).rejects.toMatchObject({ status: 409, detail: expect.stringMatching(/disputed/) });
    // The admin decides by release: the dispute closes, released, and the seller is paid.
    const resolved = await b.transfer.resolveDispute(admin, sale.invoice.id, { action: 'release', note: 'Access was handed over on the 3rd; screenshots checked.' });
    expect(resolved.invoice).toMatchObject({ status: 'paid', dispute: { status: 'closed', outcome: 'released' } });
    expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
  });

  it('makes one transfer when releases race, and pays nothing twice across retries', async () => {
    const sale = await heldSale(b);
    await onboard(b, sale.seller);
    const answers = await Promise.allSettled([1, 2, 3, 4].map(() => b.payments.capture(admin, sale.intentId, {})));
    expect(answers.filter((a) => a.status === 'fulfilled').length).toBeGreaterThan(0);
    expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
    await b.escrowSweep.sweep();
    expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
    expect((await b.ledger.forInvoice(sale.invoice.id)).filter((t) => t.kind === 'payout')).toHaveLength(1);
  });

  it('refunds from the hold, from escrow, and refuses once the money was released, saying what to do', async () => {
    // Before capture: the hold is canceled and the sale unwound, no strike.
    const hold = await heldSale(b);
    const canceled = await b.payments.refund(admin, hold.intentId, {});
    expect(canceled.payment_intent.status).toBe('canceled');
    expect(await b.invoices.findById(hold.invoice.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'refunded' });
    const [lapse] = await outbox('sale.lapsed', hold.invoice.id);
    expect(lapse.payload).toMatchObject({ reason: 'refunded', strike: false, listing_id: hold.invoice.listing_id });
    expect((await b.ledger.forInvoice(hold.invoice.id)).map((t) => t.kind)).toEqual(['authorization', 'hold_released']);

    // After capture: refunded from the platform's balance.
    const captured = await heldSale(b);
    await b.transfer.markTransferStarted(captured.seller, captured.invoice.id);
    await b.payments.refund(admin, captured.intentId, {});
    expect(await intentOf(captured.intentId)).toMatchObject({ status: 'canceled' });
    expect((await intentOf(captured.intentId)).refunded_at).not.toBeNull();
    expect(await b.invoices.findById(captured.invoice.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'refunded' });
    expect((await b.ledger.forInvoice(captured.invoice.id)).map((t) => t.kind)).toEqual(['authorization', 'capture', 'refund_owed', 'refund_paid']);

    // After the release: refused, and the money is where it was.
    const paid = await heldSale(b);
    await onboard(b, paid.seller);
    await b.payments.capture(admin, paid.intentId, {});
    await expect(b.payments.refund(admin, paid.intentId, {})).rejects.toMatchObject({
      status: 409,
      detail: expect.stringMatching(/released to the seller on .*reverse the transfer/),
    });
    expect((await b.invoices.findById(paid.invoice.id))?.status).toBe('paid');
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true });
  });

  it('unwinds a disputed sale the admin refunds, so the listing never stays sold', async () => {
    const sale = await heldSale(b);
    await b.transfer.markTransferStarted(sale.seller, sale.invoice.id);
    await b.transfer.openDispute(sale.buyer, sale.invoice.id, { reason: 'not_as_described', message: 'Traffic is a tenth of what the listing claimed.' });
    const resolved = await b.transfer.resolveDispute(admin, sale.invoice.id, { action: 'refund', note: 'Analytics show the claims were false; refunded.' });
    expect(resolved.invoice).toMatchObject({ status: 'cancelled', can_pay: false, dispute: { outcome: 'refunded' } });
    expect(await outbox('sale.lapsed', sale.invoice.id)).toEqual([{ payload: expect.objectContaining({ reason: 'refunded', strike: false }) }]);
    expect(await outbox('dispute.resolved', sale.invoice.id)).toHaveLength(1);
  });

  it('lapses a hold the platform could not capture back to payable with a new payment window', async () => {
    const buyer = member();
    const seller = member();
    const invoice = await saleInvoice(b.invoices, { buyer, seller });
    const created = await b.payments.createPayment(buyer, invoice.id);
    await b.payments.sandboxConfirm(buyer, created.payment_intent_id, card(created.client_secret));
    // The hold is back-dated past its deadline, as if every capture attempt had failed for 7 days.
    await ds.query(`UPDATE payment_intents SET authorized_at = now() - interval '8 days' WHERE id = $1`, [created.payment_intent_id]);
    expect(await b.holdSweep.sweep()).toBe(1);
    const lapsed = await b.invoices.findById(invoice.id);
    expect(lapsed?.status).toBe('payment_canceled');
    expect(lapsed?.pay_by?.getTime()).toBeGreaterThan(Date.now() + 47 * 3600_000);
    expect((await b.ledger.forInvoice(invoice.id)).map((t) => t.kind)).toEqual(['authorization', 'hold_released']);
    expect(await outbox('invoice.hold_expired', invoice.id)).toHaveLength(1);
  });
});
