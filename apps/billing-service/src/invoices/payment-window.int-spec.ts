import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import { outboxPayload, type TestDatabase } from '@market/server-kit/testing';
import type { InvoiceRecord } from './invoices.repository';
import { UnpaidSalesRepository } from './unpaid-sales.repository';
import { EndUnpaidSale } from './end-unpaid-sale';
import { PaymentWindowSweep } from './payment-window.sweep';
import { SandboxProvider } from '../payments/sandbox.provider';
import { PaymentEventsHandler } from '../payments/payment-events.handler';
import { PaymentsService } from '../payments/payments.service';
import { member, openBillingDatabase, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';

const HOUR = 3600_000;
const card = (number: string, client_secret: string) => ({ client_secret, card_number: number, exp_month: 12, exp_year: 2099, cvc: '123' });

describe('the payment window (ADR 0043)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let b: BillingUnderTest;
  let sandbox: SandboxProvider;
  let handler: PaymentEventsHandler;
  let payments: PaymentsService;
  let sweep: PaymentWindowSweep;

  const newInvoice = async (buyer: Actor, createdAt = new Date()): Promise<InvoiceRecord> =>
    (
      await b.invoices.createForSale(
        {
          bid_id: randomUUID(),
          listing_id: randomUUID(),
          buyer_id: buyer.user_id,
          seller_id: member().user_id,
          website_title: 'Recipe blog',
          website_url: null,
          sale_type: 'buy_now',
          amount: 4500,
          success_fee_percent: 0,
          payment_window_hours: 48,
        },
        createdAt,
      )
    ).invoice;
  // Their sealed note read back as billing wrote it (ADR 0066).
  const lapsedEventsOf = async (invoiceId: string): Promise<{ payload: Record<string, unknown> }[]> => {
    const rows: { payload: Record<string, unknown> }[] = await ds.query(`SELECT payload FROM outbox WHERE name = 'sale.lapsed' AND payload->>'invoice_id' = $1 ORDER BY seq`, [invoiceId]);
    return Promise.all(rows.map(async (row) => ({ payload: await outboxPayload(ds, 'sale.lapsed', row.payload) })));
  };
  const buyer = member;

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing'));
    b = wireBilling(ds);
    sandbox = b.provider as SandboxProvider;
    handler = b.handler;
    payments = b.payments;
    sweep = new PaymentWindowSweep(new UnpaidSalesRepository(ds), new EndUnpaidSale(new UnpaidSalesRepository(ds), sandbox), handler, sandbox, { PAYMENT_WINDOW_SWEEP_MS: 60_000 });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('gives every new invoice a pay-by moment PAYMENT_WINDOW_HOURS after it was made', async () => {
    const made = new Date('2026-11-20T08:00:00Z');
    const invoice = await newInvoice(buyer(), made);
    expect(invoice.pay_by?.toISOString()).toBe('2026-11-22T08:00:00.000Z');
  });

  it('lapses an unpaid invoice past its window, once, with sale.lapsed in its transaction; not one still inside it', async () => {
    const inside = await newInvoice(buyer(), new Date(Date.now() - 47 * HOUR));
    const past = await newInvoice(buyer(), new Date(Date.now() - 49 * HOUR));
    const now = new Date();
    expect(await sweep.sweep(now)).toBeGreaterThanOrEqual(1);
    expect((await b.invoices.findById(inside.id))?.status).toBe('pending');
    expect(await lapsedEventsOf(inside.id)).toEqual([]);
    const lapsed = await b.invoices.findById(past.id);
    expect(lapsed).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid', cancel_note: null });
    expect(lapsed?.cancelled_at?.getTime()).toBe(now.getTime());
    expect(await lapsedEventsOf(past.id)).toEqual([
      {
        payload: {
          invoice_id: past.id, invoice_number: past.invoice_number, listing_id: past.listing_id, bid_id: past.bid_id, buyer_id: past.buyer_id,
          seller_id: past.seller_id, website_title: 'Recipe blog', kind: 'buy_now', amount: 4500, lapsed_at: now.toISOString(), reason: 'unpaid',
          strike: true, note: null,
        },
      },
    ]);
    // A second sweep (or another replica's) changes nothing more.
    await sweep.sweep(new Date());
    expect(await lapsedEventsOf(past.id)).toHaveLength(1);
    // The lapsed sale cannot be paid any more.
    await expect(payments.createPayment({ user_id: past.buyer_id, role: 'regular' }, past.id)).rejects.toMatchObject({ status: 409 });
  });

  it('never lapses an invoice whose card was authorised in time while the funds are held; a hold that lapsed gets a new window', async () => {
    const who = buyer();
    const invoice = await newInvoice(who, new Date(Date.now() - 47 * HOUR));
    const created = await payments.createPayment(who, invoice.id);
    await payments.sandboxConfirm(who, created.payment_intent_id, card('4242424242424242', created.client_secret));
    await sweep.sweep(new Date(Date.now() + 2 * HOUR));
    expect((await b.invoices.findById(invoice.id))?.status).toBe('payment_authorized');
    expect(await lapsedEventsOf(invoice.id)).toEqual([]);

    // The hold lapses uncaptured (as if every capture into escrow had failed for 7 days): payable again within a new
    // window from the lapse (D11, D22), and an authorisation that no longer holds money no longer keeps the sale.
    await ds.query(`UPDATE payment_intents SET authorized_at = now() - interval '8 days' WHERE id = $1`, [created.payment_intent_id]);
    const lapsedFrom = Date.now();
    expect(await b.holdSweep.sweep()).toBe(1);
    const payable = await b.invoices.findById(invoice.id);
    expect(payable?.status).toBe('payment_canceled');
    const newWindowEnd = payable?.pay_by?.getTime() as number;
    expect(newWindowEnd).toBeGreaterThanOrEqual(lapsedFrom + b.config.PAYMENT_WINDOW_HOURS * HOUR);
    await sweep.sweep(new Date(newWindowEnd - 60_000));
    expect((await b.invoices.findById(invoice.id))?.status).toBe('payment_canceled');
    expect(await lapsedEventsOf(invoice.id)).toEqual([]);
    // Unpaid at the new window's end: the sale lapses as any unpaid one does.
    expect(await sweep.sweep(new Date(newWindowEnd + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await b.invoices.findById(invoice.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'unpaid' });
    expect(await lapsedEventsOf(invoice.id)).toEqual([{ payload: expect.objectContaining({ reason: 'unpaid', invoice_id: invoice.id }) }]);
  });

  it('a lapse racing the buyer\'s authorisation: exactly one wins, and a hold that lost is released at the provider', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round += 1) {
      const who = buyer();
      const invoice = await newInvoice(who, new Date(Date.now() - 47 * HOUR));
      const created = await payments.createPayment(who, invoice.id);
      const [providerIntentId] = (await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [created.payment_intent_id])).map(
        (r: { provider_intent_id: string }) => r.provider_intent_id,
      );
      const later = new Date(Date.now() + 2 * HOUR);
      // The provider authorises (its notice is delivered to the handler) while the sweep runs.
      await Promise.all([sandbox.confirm(providerIntentId, 'succeeds').then(() => handler.sync(providerIntentId)), sweep.sweep(later)]);
      // The next sweep releases any hold that reached the provider after the lapse.
      await sweep.sweep(later);
      const final = await b.invoices.findById(invoice.id);
      const remote = await sandbox.retrieve(providerIntentId);
      const lapses = await lapsedEventsOf(invoice.id);
      if (final?.status === 'cancelled') {
        expect(lapses).toHaveLength(1);
        expect(remote?.status).toBe('canceled');
        expect(remote?.captured_at).toBeNull();
      } else {
        expect(final?.status).toBe('payment_authorized');
        expect(lapses).toEqual([]);
        expect(remote?.status).toBe('requires_capture');
      }
      outcomes.add(final?.status ?? 'missing');
    }
    expect([...outcomes].every((status) => ['cancelled', 'payment_authorized'].includes(status))).toBe(true);
  });

  it('an admin\'s cancel ends an unpaid sale with the note, the strike as asked and the act audited; never one whose card is authorised', async () => {
    const sales = new EndUnpaidSale(new UnpaidSalesRepository(ds), sandbox);
    const admin: Actor = { user_id: randomUUID(), role: 'admin' };
    const ending = { event: 'sale_cancelled', reason: 'admin_cancelled', strike: false, note: 'The buyer asked to withdraw', admin } as const;
    const unpaid = await newInvoice(buyer());
    const result = await sales.end(unpaid.id, ending, new Date(), { wait: true });
    expect(result).toMatchObject({ ended: true, invoice: { status: 'cancelled', cancel_reason: 'admin_cancelled', cancel_note: 'The buyer asked to withdraw' } });
    expect(await lapsedEventsOf(unpaid.id)).toEqual([{ payload: expect.objectContaining({ reason: 'admin_cancelled', strike: false, note: 'The buyer asked to withdraw' }) }]);
    const audited = await ds.query(`SELECT payload FROM outbox WHERE name = 'admin.acted' AND payload->>'target_id' = $1`, [unpaid.id]);
    expect(audited).toEqual([{ payload: expect.objectContaining({ action: 'invoice.sale_cancelled', target_type: 'invoice', target_label: unpaid.invoice_number, admin_id: admin.user_id }) }]);
    expect(await sales.end(unpaid.id, ending, new Date(), { wait: true })).toMatchObject({ ended: false, why: 'not_unpaid' });

    const who = buyer();
    const held = await newInvoice(who);
    const created = await payments.createPayment(who, held.id);
    await payments.sandboxConfirm(who, created.payment_intent_id, card('4242424242424242', created.client_secret));
    expect(await sales.end(held.id, ending, new Date(), { wait: true })).toMatchObject({ ended: false, why: 'not_unpaid', invoice: { status: 'payment_authorized' } });
    expect(await lapsedEventsOf(held.id)).toEqual([]);
  });
});
