import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Actor, EventName } from '@market/contracts';
import { outboxPayload, type TestDatabase } from '@market/server-kit/testing';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { SandboxProvider } from '../payments/sandbox.provider';
import { PaymentsService } from '../payments/payments.service';
import { HoldExpirySweep } from '../payments/hold-expiry.sweep';
import type { CreateTransferInput } from '../payments/payment-provider';
import { member, onboard, openBillingDatabase, SITE, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';
import { ledgerState } from '../testing/ledger-checks';
import { TransferService } from './transfer.service';
import { DisputeEscalationSweep } from './dispute-escalation.sweep';
import { TransferSteps } from './transfer-steps';

const DAY = 24 * 3600_000;
const MESSAGE = 'The seller never sent the hosting login, only the domain.';

describe('transfer checklist and disputes (ADR 0039)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let b: BillingUnderTest;
  let invoices: InvoicesRepository;
  let sandbox: SandboxProvider;
  let payments: PaymentsService;
  let transfer: TransferService;
  let holds: HoldExpirySweep;
  let escalation: DisputeEscalationSweep;
  const admin: Actor = { user_id: randomUUID(), role: 'admin' };
  const otherAdmin: Actor = { user_id: randomUUID(), role: 'admin' };

  interface Sale {
    invoice: InvoiceRecord;
    buyer: Actor;
    seller: Actor;
    intentId: string;
  }

  /** An invoice whose buyer's card (4242) is held, as after the payment dialog. */
  const heldSale = async (): Promise<Sale> => {
    const sale = await pendingSale();
    const created = await payments.createPayment(sale.buyer, sale.invoice.id);
    await payments.sandboxConfirm(sale.buyer, created.payment_intent_id, {
      client_secret: created.client_secret,
      card_number: '4242424242424242',
      exp_month: 12,
      exp_year: 2099,
      cvc: '123',
    });
    expect((await invoices.findById(sale.invoice.id))?.status).toBe('payment_authorized');
    return { ...sale, intentId: created.payment_intent_id };
  };
  const pendingSale = async (): Promise<Sale> => {
    const buyer = member();
    const seller = member();
    const { invoice } = await invoices.createForSale(
      {
        bid_id: randomUUID(),
        listing_id: randomUUID(),
        buyer_id: buyer.user_id,
        seller_id: seller.user_id,
        website_title: 'Recipe blog',
        website_url: null,
        sale_type: 'buy_now',
        amount: 3200,
        success_fee_percent: 5,
      },
      new Date(),
    );
    return { invoice, buyer, seller, intentId: '' };
  };
  // Payloads as billing wrote them: an admin act's values are sealed for admin-service (ADR 0066).
  const outbox = async (name: EventName, invoiceId: string): Promise<{ payload: Record<string, unknown> }[]> => {
    const rows: { payload: Record<string, unknown> }[] = await ds.query(
      `SELECT payload FROM outbox WHERE name = $1 AND (payload->>'invoice_id' = $2 OR payload->>'target_id' = $2) ORDER BY seq`,
      [name, invoiceId],
    );
    return Promise.all(rows.map(async (row) => ({ payload: await outboxPayload(ds, name, row.payload) })));
  };
  const dispute = (sale: Sale) => transfer.openDispute(sale.buyer, sale.invoice.id, { reason: 'access_incomplete', message: MESSAGE });
  const transfersOf = (invoiceId: string): Promise<{ id: string; amount_cents: string }[]> =>
    ds.query('SELECT id, amount_cents FROM sandbox_transfers WHERE transfer_group = $1', [invoiceId]);
  const intentOf = async (intentId: string): Promise<{ status: string; refunded_at: Date | null }> =>
    (await ds.query('SELECT status, refunded_at FROM payment_intents WHERE id = $1', [intentId]))[0];

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing_transfer'));
    b = wireBilling(ds);
    invoices = b.invoices;
    sandbox = b.provider as SandboxProvider;
    payments = b.payments;
    transfer = b.transfer;
    holds = b.holdSweep;
    escalation = new DisputeEscalationSweep(new TransferSteps(b.transferRepository), { HOLD_SWEEP_MS: 60_000 });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('lets only the seller mark the transfer started, only while funds are held, keeping the first time on retries', async () => {
    const pending = await pendingSale();
    await expect(transfer.markTransferStarted(pending.seller, pending.invoice.id)).rejects.toMatchObject({
      status: 409,
      detail: "The transfer can be marked started only while the buyer's funds are held; this invoice is pending",
    });
    const sale = await heldSale();
    await expect(transfer.markTransferStarted(sale.buyer, sale.invoice.id)).rejects.toMatchObject({ status: 403, detail: 'Only the seller can mark the transfer started' });
    await expect(transfer.markTransferStarted({ user_id: randomUUID(), role: 'regular' }, sale.invoice.id)).rejects.toMatchObject({ status: 404 });
    await expect(transfer.markTransferStarted(admin, sale.invoice.id)).rejects.toMatchObject({ status: 403 });

    const first = await transfer.markTransferStarted(sale.seller, sale.invoice.id);
    expect(first.invoice).toMatchObject({ role: 'seller', status: 'payment_authorized', can_mark_transfer_started: false });
    expect(first.invoice.transfer.started_at).not.toBeNull();
    // The held funds are captured into escrow when the transfer starts (D22); the invoice stays held.
    expect(first.invoice.escrow.captured_at).not.toBeNull();
    expect((await intentOf(sale.intentId)).status).toBe('succeeded');
    const again = await Promise.all([1, 2, 3].map(() => transfer.markTransferStarted(sale.seller, sale.invoice.id)));
    for (const answer of again) {
      expect(answer.invoice.transfer.started_at).toBe(first.invoice.transfer.started_at);
      expect(answer.invoice.escrow.captured_at).toBe(first.invoice.escrow.captured_at);
    }
    expect(await outbox('payment.captured', sale.invoice.id)).toHaveLength(1);
  });

  it('lets only the buyer confirm receipt, after the seller started, keeping the first time on retries', async () => {
    const sale = await heldSale();
    await expect(transfer.confirmReceived(sale.buyer, sale.invoice.id)).rejects.toMatchObject({
      status: 409,
      detail: 'The seller has not started the transfer yet; you can confirm receipt once they have',
    });
    await transfer.markTransferStarted(sale.seller, sale.invoice.id);
    await expect(transfer.confirmReceived(sale.seller, sale.invoice.id)).rejects.toMatchObject({ status: 403 });
    const first = await transfer.confirmReceived(sale.buyer, sale.invoice.id);
    expect(first.invoice).toMatchObject({ role: 'buyer', can_confirm_received: false, can_dispute: true });
    expect(first.invoice.transfer.received_at).not.toBeNull();
    expect((await transfer.confirmReceived(sale.buyer, sale.invoice.id)).invoice.transfer.received_at).toBe(first.invoice.transfer.received_at);
    // Having confirmed receipt, the buyer may still dispute, but not say the site never came (D22, ADR 0063).
    await expect(transfer.openDispute(sale.buyer, sale.invoice.id, { reason: 'site_not_received', message: MESSAGE })).rejects.toMatchObject({
      status: 409,
      detail: expect.stringMatching(/confirmed that you received the site/),
    });
  });

  it('opens one dispute for the buyer only while funds are held, tells the seller once, and blocks the plain release and refund', async () => {
    const pending = await pendingSale();
    await expect(dispute(pending)).rejects.toMatchObject({ status: 409, detail: 'A dispute can be opened only while your payment is held; this invoice is pending' });
    const sale = await heldSale();
    await expect(transfer.openDispute(sale.seller, sale.invoice.id, { reason: 'other', message: MESSAGE })).rejects.toMatchObject({ status: 403 });

    const answers = await Promise.all([dispute(sale), dispute(sale), dispute(sale)]);
    for (const answer of answers) {
      expect(answer.invoice).toMatchObject({
        status: 'disputed',
        can_pay: false,
        can_dispute: false,
        dispute: { status: 'open', reason: 'access_incomplete', reason_label: 'Some accounts or files were not handed over', message: MESSAGE, outcome: null },
      });
    }
    expect((await ds.query('SELECT count(*)::int AS n FROM disputes WHERE invoice_id = $1', [sale.invoice.id]))[0].n).toBe(1);
    expect(await outbox('dispute.opened', sale.invoice.id)).toEqual([
      { payload: expect.objectContaining({ seller_id: sale.seller.user_id, buyer_id: sale.buyer.user_id, reason: 'access_incomplete', message: MESSAGE }) },
    ]);

    // While disputed: no receipt, no plain release or refund, no overdue, and the seller may still work on the transfer.
    await transfer.markTransferStarted(sale.seller, sale.invoice.id);
    await expect(transfer.confirmReceived(sale.buyer, sale.invoice.id)).rejects.toMatchObject({ status: 409 });
    const resolveInstead = { status: 409, detail: 'This invoice is disputed: resolve the dispute (release or refund, with a note) instead.' };
    await expect(payments.capture(admin, sale.intentId, {})).rejects.toMatchObject(resolveInstead);
    await expect(payments.refund(admin, sale.intentId, {})).rejects.toMatchObject(resolveInstead);
    await invoices.markOverdue(new Date(Date.now() + 30 * DAY));
    expect((await invoices.findById(sale.invoice.id))?.status).toBe('disputed');
  });

  it('resolves by refund with a note: audited once, both parties told once, retries answer the outcome, the other decision is refused', async () => {
    const sale = await heldSale();
    await dispute(sale);
    await expect(transfer.resolveDispute(sale.buyer, sale.invoice.id, { action: 'refund', note: 'Buyer never got the site.' })).rejects.toMatchObject({ status: 403 });

    const note = 'The seller could not show the hosting was handed over.';
    const resolved = await transfer.resolveDispute(admin, sale.invoice.id, { action: 'refund', note });
    // The buyer has the money back, so the sale ends (D22): cancelled, not payable again.
    expect(resolved.invoice).toMatchObject({ status: 'cancelled', can_pay: false, dispute: { status: 'closed', outcome: 'refunded', resolution_note: note } });
    expect(await invoices.findById(sale.invoice.id)).toMatchObject({ cancel_reason: 'refunded' });
    const retried = await transfer.resolveDispute(admin, sale.invoice.id, { action: 'refund', note: 'Pressed twice by mistake.' });
    expect(retried.invoice.dispute).toMatchObject({ outcome: 'refunded', resolution_note: note });
    await expect(transfer.resolveDispute(admin, sale.invoice.id, { action: 'release', note: 'Changed my mind here.' })).rejects.toMatchObject({ status: 409 });

    expect(await outbox('dispute.resolved', sale.invoice.id)).toEqual([
      { payload: expect.objectContaining({ outcome: 'refunded', note, buyer_id: sale.buyer.user_id, seller_id: sale.seller.user_id }) },
    ]);
    expect(await outbox('admin.acted', sale.invoice.id)).toEqual([
      {
        payload: expect.objectContaining({
          admin_id: admin.user_id,
          action: 'dispute.resolved',
          target_type: 'invoice',
          target_label: sale.invoice.invoice_number,
          after: { resolution: 'refund', note },
        }),
      },
    ]);
    expect((await outbox('payment.refunded', sale.invoice.id)).length).toBe(1);
    // The sale is unwound once, with no strike for the buyer.
    expect(await outbox('sale.lapsed', sale.invoice.id)).toEqual([{ payload: expect.objectContaining({ reason: 'refunded', strike: false, listing_id: sale.invoice.listing_id }) }]);
  });

  it('audits a decision whose act was not recorded (the admin process died after the money moved) when its admin retries', async () => {
    const sale = await heldSale();
    await dispute(sale);
    const note = 'The site was never handed over to the buyer.';
    await transfer.resolveDispute(admin, sale.invoice.id, { action: 'refund', note });
    // What a crash between the provider's refund and the audit leaves: the dispute closed, no act recorded.
    await ds.query(`DELETE FROM outbox WHERE name = 'admin.acted' AND payload->>'target_id' = $1`, [sale.invoice.id]);
    await ds.query('UPDATE disputes SET resolution_audited_at = NULL WHERE invoice_id = $1', [sale.invoice.id]);

    await transfer.resolveDispute(admin, sale.invoice.id, { action: 'refund', note: 'Retrying after an error.' });
    await transfer.resolveDispute(admin, sale.invoice.id, { action: 'refund', note: 'And once more.' });
    expect(await outbox('admin.acted', sale.invoice.id)).toEqual([
      { payload: expect.objectContaining({ admin_id: admin.user_id, action: 'dispute.resolved', after: { resolution: 'refund', note } }) },
    ]);
  });

  it('resolves by release: the invoice is paid and the dispute closed as released', async () => {
    const sale = await heldSale();
    await onboard(b, sale.seller);
    await dispute(sale);
    const resolved = await transfer.resolveDispute(admin, sale.invoice.id, { action: 'release', note: 'Transfer verified with both parties.' });
    expect(resolved.invoice).toMatchObject({ status: 'paid', dispute: { status: 'closed', outcome: 'released' } });
    expect((await outbox('payment.captured', sale.invoice.id)).length).toBe(1);
    // Paid out (D22): one transfer of the price less the success fee to the seller's payout account.
    expect((await transfersOf(sale.invoice.id)).map((t) => Number(t.amount_cents))).toEqual([304_000]);
    expect(await outbox('payout.sent', sale.invoice.id)).toEqual([{ payload: expect.objectContaining({ gross: 3200, fee: 160, net: 3040 }) }]);

    // A seller without a payout account: the dispute closes as released all the same, and the payout waits for it.
    const waiting = await heldSale();
    await dispute(waiting);
    const decided = await transfer.resolveDispute(admin, waiting.invoice.id, { action: 'release', note: 'Transfer verified with both parties.' });
    expect(decided.invoice).toMatchObject({ status: 'payment_authorized', can_dispute: false, dispute: { status: 'closed', outcome: 'released' } });
    expect(await b.payoutRecords.findByInvoice(waiting.invoice.id)).toMatchObject({ status: 'waiting_for_account', released_by: `dispute:${admin.user_id}` });
    expect(await transfersOf(waiting.invoice.id)).toEqual([]);
    await onboard(b, waiting.seller);
    expect(await invoices.findById(waiting.invoice.id)).toMatchObject({ status: 'paid' });
    expect(await transfersOf(waiting.invoice.id)).toHaveLength(1);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true, payablesMatchUnsentPayouts: true });

    await expect(transfer.resolveDispute(admin, (await pendingSale()).invoice.id, { action: 'release', note: 'Nothing to decide here.' })).rejects.toMatchObject({
      status: 409,
      detail: 'This invoice has no dispute to resolve',
    });
  });

  it('lets one of two admins deciding differently at once win; the other gets a 409 and the money moves once', async () => {
    for (let round = 0; round < 3; round++) {
      const sale = await heldSale();
      await onboard(b, sale.seller);
      await dispute(sale);
      const results = await Promise.allSettled([
        transfer.resolveDispute(admin, sale.invoice.id, { action: 'release', note: 'Transfer verified by admin one.' }),
        transfer.resolveDispute(otherAdmin, sale.invoice.id, { action: 'refund', note: 'Refund decided by admin two.' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { status: 409 } });
      const status = (await invoices.findById(sale.invoice.id))?.status;
      expect(['paid', 'cancelled']).toContain(status);
      // The money moved one way only: paid out to the seller, or back to the buyer.
      const intent = await intentOf(sale.intentId);
      if (status === 'paid') {
        expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
        expect(intent).toMatchObject({ status: 'succeeded', refunded_at: null });
      } else {
        expect(await transfersOf(sale.invoice.id)).toEqual([]);
        expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toBeNull();
        expect(intent.status).toBe('canceled');
      }
      expect(await outbox('dispute.resolved', sale.invoice.id)).toHaveLength(1);
      expect(await outbox('admin.acted', sale.invoice.id)).toHaveLength(1);
    }
  });

  it('keeps the release mark when the provider paid the seller but its answer was lost, so no dispute opens on released money', async () => {
    const sale = await heldSale();
    await onboard(b, sale.seller);
    // The provider makes the payout's transfer, then the connection drops before its answer (or its notice) arrives.
    const quiet = new SandboxProvider(ds, SITE);
    const lossyConnect = new Proxy(quiet.connect, {
      get(target, key, receiver) {
        if (key !== 'createTransfer') return Reflect.get(target, key, receiver);
        return async (input: CreateTransferInput) => {
          await target.createTransfer(input);
          throw new Error('socket hang up');
        };
      },
    });
    const lossy = new Proxy(quiet, { get: (target, key, receiver) => (key === 'connect' ? lossyConnect : Reflect.get(target, key, receiver)) });
    // Its events are the test's to deliver: the sandbox's own listener stays as it is.
    const lossyPayments = wireBilling(ds, { provider: lossy, listen: false }).payments;
    const released = await lossyPayments.capture(admin, sale.intentId, {});
    expect(released.message).toMatch(/^Payment captured successfully! .*could not be sent just now/);
    expect(await invoices.findById(sale.invoice.id)).toMatchObject({ status: 'payment_authorized' });
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toMatchObject({ status: 'pending', attempts: 1 });
    await expect(dispute(sale)).rejects.toMatchObject({ status: 409, detail: expect.stringContaining('already being released') });
    // The retry finds the transfer the provider made: the seller is paid once.
    await b.sender.sendPending(10);
    expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
    expect(await invoices.findById(sale.invoice.id)).toMatchObject({ status: 'paid' });
  });

  it('decides a dispute racing a release by the invoice lock: paid with no dispute, or disputed with no release, never both', async () => {
    for (let round = 0; round < 6; round++) {
      const sale = await heldSale();
      await onboard(b, sale.seller);
      const [opened, captured] = await Promise.allSettled([dispute(sale), payments.capture(admin, sale.intentId, {})]);
      const invoice = await invoices.findById(sale.invoice.id);
      const disputes: { closed_at: Date | null }[] = await ds.query('SELECT closed_at FROM disputes WHERE invoice_id = $1', [sale.invoice.id]);
      if (invoice?.status === 'paid') {
        expect(captured.status).toBe('fulfilled');
        expect(opened).toMatchObject({ status: 'rejected', reason: { status: 409 } });
        expect(disputes).toHaveLength(0);
        expect(await transfersOf(sale.invoice.id)).toHaveLength(1);
      } else {
        expect(invoice?.status).toBe('disputed');
        expect(opened.status).toBe('fulfilled');
        expect(captured).toMatchObject({ status: 'rejected', reason: { status: 409 } });
        expect(disputes).toEqual([{ closed_at: null }]);
        // The funds may have been captured into escrow (D22), but nothing was released to the seller.
        expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toBeNull();
        expect(await transfersOf(sale.invoice.id)).toEqual([]);
      }
    }
  });

  it('never lets the hold sweep lapse a disputed hold; escalates it once, urgent for admins; a lapse at the provider closes it as lapsed', async () => {
    const sale = await heldSale();
    await dispute(sale);
    expect(await escalation.sweep(new Date(Date.now() + 4 * DAY))).toBe(0);
    const late = new Date(Date.now() + 7 * DAY + 60_000);
    // The sweep lapses the other tests' undisputed holds, never this one.
    await holds.sweep(late);
    expect((await invoices.findById(sale.invoice.id))?.status).toBe('disputed');
    expect((await ds.query('SELECT status FROM payment_intents WHERE id = $1', [sale.intentId]))[0].status).toBe('requires_capture');

    expect(await escalation.sweep(new Date(Date.now() + 5.5 * DAY))).toBeGreaterThanOrEqual(1);
    expect(await escalation.sweep(late)).toBe(0);
    expect(await outbox('dispute.escalated', sale.invoice.id)).toEqual([
      { payload: expect.objectContaining({ buyer_id: sale.buyer.user_id, seller_id: sale.seller.user_id, invoice_number: sale.invoice.invoice_number }) },
    ]);
    const row = (await payments.adminList(admin)).payment_intents.find((p) => p.id === sale.intentId);
    expect(row).toMatchObject({ invoice_status: 'disputed', dispute: { status: 'open' } });
    // Urgency is measured against the real clock here: this hold was authorised moments ago.
    expect(row?.dispute_urgent).toBe(false);
    await ds.query(`UPDATE payment_intents SET authorized_at = now() - interval '6 days' WHERE id = $1`, [sale.intentId]);
    expect((await payments.adminList(admin)).payment_intents.find((p) => p.id === sale.intentId)?.dispute_urgent).toBe(true);

    // Stripe ends an uncaptured authorisation by itself: the invoice leaves disputed and both parties hear of it.
    const [{ provider_intent_id }] = await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [sale.intentId]);
    await sandbox.cancel(provider_intent_id, 'expired');
    await b.handler.sync(provider_intent_id);
    // The buyer has the money back, so the disputed sale ends (D22): cancelled and unwound, no strike.
    expect(await invoices.findById(sale.invoice.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'refunded' });
    expect(await outbox('dispute.resolved', sale.invoice.id)).toEqual([{ payload: expect.objectContaining({ outcome: 'lapsed', note: null }) }]);
    expect(await outbox('sale.lapsed', sale.invoice.id)).toEqual([{ payload: expect.objectContaining({ reason: 'refunded', strike: false }) }]);
  });

  it('answers a 409 and audits nothing when the hold ended at the provider before the decision; the outcome stands', async () => {
    const sale = await heldSale();
    await dispute(sale);
    const [{ provider_intent_id }] = await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [sale.intentId]);
    // The provider lets the hold go before the admin decides, and its notice has not arrived yet (a handle that delivers nothing).
    await new SandboxProvider(ds, SITE).cancel(provider_intent_id, 'expired');
    expect((await invoices.findById(sale.invoice.id))?.status).toBe('disputed');
    await expect(transfer.resolveDispute(admin, sale.invoice.id, { action: 'release', note: 'Transfer verified with both parties.' })).rejects.toMatchObject({
      status: 409,
      detail: 'This dispute already ended: the funds were returned when the hold lapsed',
    });
    expect(await invoices.findById(sale.invoice.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'refunded' });
    expect(await b.payoutRecords.findByInvoice(sale.invoice.id)).toBeNull();
    expect(await outbox('admin.acted', sale.invoice.id)).toEqual([]);
    expect(await outbox('payment.captured', sale.invoice.id)).toEqual([]);
    expect(await outbox('dispute.resolved', sale.invoice.id)).toEqual([{ payload: expect.objectContaining({ outcome: 'lapsed', note: null }) }]);
  });

  it('refuses a dispute once the release began, and allows one when the provider refused that release', async () => {
    // Through Release Funds (D22): released to a seller whose payout account is not set up yet, the payout waits, but
    // the release has begun.
    const sale = await heldSale();
    const released = await payments.capture(admin, sale.intentId, {});
    expect(released.payment_intent.payout).toMatchObject({ status: 'waiting_for_account' });
    expect((await invoices.findById(sale.invoice.id))?.release_started_at).not.toBeNull();
    await expect(dispute(sale)).rejects.toMatchObject({ status: 409, detail: expect.stringContaining('already being released') });

    // The provider refuses payouts to the seller's account: the release is refused, the funds stay held, and the buyer
    // may still dispute.
    const refused = await heldSale();
    await onboard(b, refused.seller, 'restricted');
    await expect(payments.capture(admin, refused.intentId, {})).rejects.toMatchObject({ status: 409, detail: expect.stringMatching(/restricted/) });
    expect((await invoices.findById(refused.invoice.id))?.release_started_at).toBeNull();
    expect((await dispute(refused)).invoice.status).toBe('disputed');
  });
});
