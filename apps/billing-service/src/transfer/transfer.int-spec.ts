import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import { KIT_MIGRATIONS, openServiceDatabase, type ServiceRpc } from '@market/server-kit';
import { createTestDatabase, type TestDatabase } from '@market/server-kit/testing';
import { CreateInvoices1763801200000 } from '../migrations/1763801200000-create-invoices';
import { CreatePayments1763801300000 } from '../migrations/1763801300000-create-payments';
import { AdminPaymentActs1764400000000 } from '../migrations/1764400000000-admin-payment-acts';
import { TransferAndDisputes1764520000000 } from '../migrations/1764520000000-transfer-and-disputes';
import { TransferProofs1764530100000 } from '../migrations/1764530100000-transfer-proofs';
import { PaymentWindow1764550000000 } from '../migrations/1764550000000-payment-window';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { SandboxProvider } from '../payments/sandbox.provider';
import { PaymentEventsHandler } from '../payments/payment-events.handler';
import { PaymentAdminActs } from '../payments/payment-admin-acts';
import { PaymentIntentsRepository } from '../payments/payment-intents.repository';
import { PaymentsService } from '../payments/payments.service';
import { HoldExpirySweep } from '../payments/hold-expiry.sweep';
import { TransferRepository } from './transfer.repository';
import { TransferService } from './transfer.service';
import { DisputeEscalationSweep } from './dispute-escalation.sweep';

const DAY = 24 * 3600_000;
const MESSAGE = 'The seller never sent the hosting login, only the domain.';

describe('transfer checklist and disputes (ADR 0039)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let invoices: InvoicesRepository;
  let sandbox: SandboxProvider;
  let payments: PaymentsService;
  let transfer: TransferService;
  let holds: HoldExpirySweep;
  let escalation: DisputeEscalationSweep;
  const admin: Actor = { user_id: randomUUID(), role: 'admin' };
  const otherAdmin: Actor = { user_id: randomUUID(), role: 'admin' };
  const noNames = { call: async () => ({ profiles: [] }) } as unknown as ServiceRpc;

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
    const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
    const seller: Actor = { user_id: randomUUID(), role: 'regular' };
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
  const outbox = (name: string, invoiceId: string): Promise<{ payload: Record<string, unknown> }[]> =>
    ds.query(`SELECT payload FROM outbox WHERE name = $1 AND (payload->>'invoice_id' = $2 OR payload->>'target_id' = $2) ORDER BY seq`, [name, invoiceId]);
  const dispute = (sale: Sale) => transfer.openDispute(sale.buyer, sale.invoice.id, { reason: 'access_incomplete', message: MESSAGE });

  beforeAll(async () => {
    db = await createTestDatabase('billing_transfer');
    ds = await openServiceDatabase({
      url: db.url,
      schema: 'billing',
      entities: [],
      migrations: [...KIT_MIGRATIONS, CreateInvoices1763801200000, CreatePayments1763801300000, AdminPaymentActs1764400000000, TransferAndDisputes1764520000000, TransferProofs1764530100000, PaymentWindow1764550000000],
      poolSize: 12,
    });
    invoices = new InvoicesRepository(ds);
    sandbox = new SandboxProvider(ds, 'https://market.example');
    const handler = new PaymentEventsHandler(ds, sandbox);
    handler.onModuleInit();
    const intents = new PaymentIntentsRepository(ds);
    const repository = new TransferRepository(ds);
    payments = new PaymentsService(intents, invoices, handler, new PaymentAdminActs(ds), repository, sandbox, { PUBLIC_URL: 'https://market.example' });
    transfer = new TransferService(repository, invoices, intents, handler, noNames, sandbox);
    holds = new HoldExpirySweep(intents, handler, sandbox, { HOLD_SWEEP_MS: 60_000 });
    escalation = new DisputeEscalationSweep(repository, { HOLD_SWEEP_MS: 60_000 });
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
    const again = await Promise.all([1, 2, 3].map(() => transfer.markTransferStarted(sale.seller, sale.invoice.id)));
    for (const answer of again) expect(answer.invoice.transfer.started_at).toBe(first.invoice.transfer.started_at);
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
    expect(resolved.invoice).toMatchObject({ status: 'payment_canceled', dispute: { status: 'closed', outcome: 'refunded', resolution_note: note } });
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
    await dispute(sale);
    const resolved = await transfer.resolveDispute(admin, sale.invoice.id, { action: 'release', note: 'Transfer verified with both parties.' });
    expect(resolved.invoice).toMatchObject({ status: 'paid', dispute: { status: 'closed', outcome: 'released' } });
    expect((await outbox('payment.captured', sale.invoice.id)).length).toBe(1);
    await expect(transfer.resolveDispute(admin, (await pendingSale()).invoice.id, { action: 'release', note: 'Nothing to decide here.' })).rejects.toMatchObject({
      status: 409,
      detail: 'This invoice has no dispute to resolve',
    });
  });

  it('lets one of two admins deciding differently at once win; the other gets a 409 and the money moves once', async () => {
    for (let round = 0; round < 3; round++) {
      const sale = await heldSale();
      await dispute(sale);
      const results = await Promise.allSettled([
        transfer.resolveDispute(admin, sale.invoice.id, { action: 'release', note: 'Transfer verified by admin one.' }),
        transfer.resolveDispute(otherAdmin, sale.invoice.id, { action: 'refund', note: 'Refund decided by admin two.' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { status: 409 } });
      const status = (await invoices.findById(sale.invoice.id))?.status;
      expect(['paid', 'payment_canceled']).toContain(status);
      expect(await outbox('dispute.resolved', sale.invoice.id)).toHaveLength(1);
      expect(await outbox('admin.acted', sale.invoice.id)).toHaveLength(1);
    }
  });

  it('keeps the release mark when the provider captured but its answer was lost, so no dispute opens on released money', async () => {
    const sale = await heldSale();
    // The provider captures, then the connection drops before its answer arrives.
    const lossy = new Proxy(sandbox, {
      get(target, key, receiver) {
        if (key !== 'capture') return Reflect.get(target, key, receiver);
        return async (intentId: string) => {
          await target.capture(intentId);
          throw new Error('socket hang up');
        };
      },
    });
    const handler = new PaymentEventsHandler(ds, sandbox);
    const lossyPayments = new PaymentsService(new PaymentIntentsRepository(ds), invoices, handler, new PaymentAdminActs(ds), new TransferRepository(ds), lossy, {
      PUBLIC_URL: 'https://market.example',
    });
    await expect(lossyPayments.capture(admin, sale.intentId, {})).rejects.toThrow();
    await expect(dispute(sale)).rejects.toMatchObject({ status: 409 });
  });

  it('decides a dispute racing a release by the invoice lock: paid with no dispute, or disputed with no capture, never both', async () => {
    for (let round = 0; round < 6; round++) {
      const sale = await heldSale();
      const [opened, captured] = await Promise.allSettled([dispute(sale), payments.capture(admin, sale.intentId, {})]);
      const invoice = await invoices.findById(sale.invoice.id);
      const disputes: { closed_at: Date | null }[] = await ds.query('SELECT closed_at FROM disputes WHERE invoice_id = $1', [sale.invoice.id]);
      if (invoice?.status === 'paid') {
        expect(captured.status).toBe('fulfilled');
        expect(opened).toMatchObject({ status: 'rejected', reason: { status: 409 } });
        expect(disputes).toHaveLength(0);
      } else {
        expect(invoice?.status).toBe('disputed');
        expect(opened.status).toBe('fulfilled');
        expect(captured).toMatchObject({ status: 'rejected', reason: { status: 409 } });
        expect(disputes).toEqual([{ closed_at: null }]);
        expect(await outbox('payment.captured', sale.invoice.id)).toHaveLength(0);
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
    await (transfer as unknown as { events: PaymentEventsHandler }).events.sync(provider_intent_id);
    expect((await invoices.findById(sale.invoice.id))?.status).toBe('payment_canceled');
    expect(await outbox('dispute.resolved', sale.invoice.id)).toEqual([{ payload: expect.objectContaining({ outcome: 'lapsed', note: null }) }]);
  });

  it('answers a 409 and audits nothing when the hold ended at the provider before the decision; the outcome stands', async () => {
    const sale = await heldSale();
    await dispute(sale);
    const [{ provider_intent_id }] = await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [sale.intentId]);
    // The provider lets the hold go before the admin decides, and its notice has not arrived yet (a handle that delivers nothing).
    await new SandboxProvider(ds, 'https://market.example').cancel(provider_intent_id, 'expired');
    expect((await invoices.findById(sale.invoice.id))?.status).toBe('disputed');
    await expect(transfer.resolveDispute(admin, sale.invoice.id, { action: 'release', note: 'Transfer verified with both parties.' })).rejects.toMatchObject({
      status: 409,
      detail: 'This dispute already ended: the funds were returned when the hold lapsed',
    });
    expect((await invoices.findById(sale.invoice.id))?.status).toBe('payment_canceled');
    expect(await outbox('admin.acted', sale.invoice.id)).toEqual([]);
    expect(await outbox('payment.captured', sale.invoice.id)).toEqual([]);
    expect(await outbox('dispute.resolved', sale.invoice.id)).toEqual([{ payload: expect.objectContaining({ outcome: 'lapsed', note: null }) }]);
  });

  it('refuses a dispute once the release began, and allows one again when the provider refused that release', async () => {
    const sale = await heldSale();
    const repository = new TransferRepository(ds);
    expect(await repository.beginRelease(sale.invoice.id, 'capture')).toEqual({ ok: true });
    await expect(dispute(sale)).rejects.toMatchObject({ status: 409, detail: expect.stringContaining('already being released') });
    await repository.clearRelease(sale.invoice.id);
    expect((await dispute(sale)).invoice.status).toBe('disputed');
  });
});
