import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RPC, type Actor, type BuyNowSale, type RpcDefinition } from '@market/contracts';
import { KIT_MIGRATIONS, openServiceDatabase, type ServiceRpc } from '@market/server-kit';
import { createTestDatabase, shuffled, type TestDatabase } from '@market/server-kit/testing';
import { CreateInvoices1763801200000 } from '../migrations/1763801200000-create-invoices';
import { TransferAndDisputes1764520000000 } from '../migrations/1764520000000-transfer-and-disputes';
import { TransferProofs1764530100000 } from '../migrations/1764530100000-transfer-proofs';
import { PaymentWindow1764550000000 } from '../migrations/1764550000000-payment-window';
import { CreatePayments1763801300000 } from '../migrations/1763801300000-create-payments';
import { AdminPaymentActs1764400000000 } from '../migrations/1764400000000-admin-payment-acts';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { InvoicesService } from '../invoices/invoices.service';
import { SandboxProvider } from './sandbox.provider';
import { PaymentEventsHandler } from './payment-events.handler';
import { TransferRepository } from '../transfer/transfer.repository';
import { PaymentAdminActs } from './payment-admin-acts';
import { PaymentIntentsRepository } from './payment-intents.repository';
import { PaymentsService } from './payments.service';
import { HoldExpirySweep } from './hold-expiry.sweep';
import type { ProviderEvent } from './payment-provider';

const DAY = 24 * 3600_000;
const card = (number: string, client_secret: string) => ({ client_secret, card_number: number, exp_month: 12, exp_year: 2099, cvc: '123' });

describe('card payments through the sandbox provider (D11, D12)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let invoices: InvoicesRepository;
  let sandbox: SandboxProvider;
  let handler: PaymentEventsHandler;
  let payments: PaymentsService;
  let sweep: HoldExpirySweep;
  const admin: Actor = { user_id: randomUUID(), role: 'admin' };

  const newInvoice = async (buyer: Actor, amount = 4500): Promise<InvoiceRecord> =>
    (
      await invoices.createForSale(
        {
          bid_id: randomUUID(),
          listing_id: randomUUID(),
          buyer_id: buyer.user_id,
          seller_id: randomUUID(),
          website_title: 'Recipe blog',
          website_url: null,
          sale_type: 'buy_now',
          amount,
          success_fee_percent: 0,
        },
        new Date(),
      )
    ).invoice;
  const stateOf = async (intentId: string) => {
    const [row] = await ds.query(
      `SELECT p.status, p.last_error, p.authorized_at, p.captured_at, p.succeeded_at, p.refunded_at, p.canceled_at, i.status AS invoice_status, i.paid_at
       FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = $1`,
      [intentId],
    );
    return row;
  };
  const eventsOf = async (providerIntentId: string): Promise<ProviderEvent[]> =>
    ds.query('SELECT id, type, intent_id, at FROM sandbox_events WHERE intent_id = $1 ORDER BY at', [providerIntentId]);
  const paymentEventsOf = (invoiceId: string): Promise<{ name: string; payload: Record<string, unknown> }[]> =>
    ds.query(`SELECT name, payload FROM outbox WHERE name LIKE 'payment.%' AND payload->>'invoice_id' = $1 ORDER BY seq`, [invoiceId]);
  const providerIdOf = async (intentId: string): Promise<string> =>
    (await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [intentId]))[0].provider_intent_id;

  beforeAll(async () => {
    db = await createTestDatabase('billing');
    ds = await openServiceDatabase({
      url: db.url,
      schema: 'billing',
      entities: [],
      migrations: [...KIT_MIGRATIONS, CreateInvoices1763801200000, CreatePayments1763801300000, AdminPaymentActs1764400000000, TransferAndDisputes1764520000000, TransferProofs1764530100000, PaymentWindow1764550000000],
      poolSize: 12,
    });
    invoices = new InvoicesRepository(ds);
    sandbox = new SandboxProvider(ds, 'https://market.example');
    handler = new PaymentEventsHandler(ds, sandbox);
    handler.onModuleInit();
    const intents = new PaymentIntentsRepository(ds);
    payments = new PaymentsService(intents, invoices, handler, new PaymentAdminActs(ds), new TransferRepository(ds), sandbox, { PUBLIC_URL: 'https://market.example' });
    sweep = new HoldExpirySweep(intents, handler, sandbox, { HOLD_SWEEP_MS: 60_000 });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('replaying every provider event 5 times in shuffled orders leaves the state the flow left', async () => {
    const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
    const invoice = await newInvoice(buyer);
    const created = await payments.createPayment(buyer, invoice.id);
    const declined = await payments.sandboxConfirm(buyer, created.payment_intent_id, card('4000 0000 0000 0002', created.client_secret));
    expect(declined.error).toEqual({ code: 'card_declined', message: 'Your card was declined.' });
    const action = await payments.sandboxConfirm(buyer, created.payment_intent_id, card('4000002760003184', created.client_secret));
    expect(action.payment_intent.status).toBe('requires_confirmation');
    await payments.sandboxConfirmStep(buyer, created.payment_intent_id, created.client_secret);
    await payments.capture(admin, created.payment_intent_id, { amount_to_capture: null, reason: 'Domain transfer verified by admin' });
    await payments.refund(admin, created.payment_intent_id, { amount_to_refund: null, reason: 'Transaction cancelled by admin' });

    const final = await stateOf(created.payment_intent_id);
    expect(final).toMatchObject({ status: 'canceled', invoice_status: 'payment_canceled', last_error: null, paid_at: null });
    expect(final.refunded_at).not.toBeNull();
    const events = await eventsOf(await providerIdOf(created.payment_intent_id));
    expect(events.map((e) => e.type)).toEqual([
      'payment_intent.payment_failed',
      'payment_intent.requires_action',
      'payment_intent.amount_capturable_updated',
      'payment_intent.succeeded',
      'charge.refunded',
    ]);

    // Redelivered as they are: every one is a duplicate and nothing moves.
    const replays = shuffled(events.flatMap((e) => Array.from({ length: 5 }, () => e)), 7);
    expect(new Set(await Promise.all(replays.map((e) => handler.handle(e))))).toEqual(new Set(['duplicate']));
    expect(await stateOf(created.payment_intent_id)).toEqual(final);
    // One payment.* event per real change, whatever the provider repeated (D19 emails).
    expect(await paymentEventsOf(invoice.id)).toEqual([
      { name: 'payment.authorized', payload: expect.objectContaining({ buyer_id: buyer.user_id, seller_id: invoice.seller_id, amount: 4500, invoice_number: invoice.invoice_number, test_mode: true }) },
      { name: 'payment.captured', payload: expect.objectContaining({ payment_intent_id: created.payment_intent_id }) },
      { name: 'payment.refunded', payload: expect.objectContaining({ payment_intent_id: created.payment_intent_id }) },
    ]);

    // As if none had arrived yet: back to the start, then the 25 deliveries in three different orders.
    for (const seed of [1, 2, 3]) {
      await ds.query(`UPDATE payment_intents SET status = 'requires_payment_method', authorized_at = NULL, captured_at = NULL, succeeded_at = NULL,
        refunded_at = NULL, canceled_at = NULL, last_error = NULL WHERE id = $1`, [created.payment_intent_id]);
      await ds.query(`UPDATE invoices SET status = 'awaiting_payment', paid_at = NULL WHERE id = $1`, [invoice.id]);
      await ds.query('DELETE FROM provider_events WHERE id = ANY($1::text[])', [events.map((e) => e.id)]);
      for (const event of shuffled(replays, seed)) await handler.handle(event);
      expect(await stateOf(created.payment_intent_id)).toEqual(final);
      expect((await ds.query('SELECT count(*)::int AS n FROM provider_events WHERE id = ANY($1::text[])', [events.map((e) => e.id)]))[0].n).toBe(5);
    }
  });

  it('events delivered late, twice and out of order while the payment moves never take it backwards', async () => {
    // A second handle on the same sandbox that delivers nothing by itself: this test delivers its events.
    const quiet = new SandboxProvider(ds, 'https://market.example');
    const quietHandler = new PaymentEventsHandler(ds, quiet);
    const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
    const invoice = await newInvoice(buyer);
    const created = await payments.createPayment(buyer, invoice.id);
    const providerId = await providerIdOf(created.payment_intent_id);
    const steps: [() => Promise<unknown>, string, string][] = [
      [() => quiet.confirm(providerId, 'card_declined'), 'requires_payment_method', 'payment_failed'],
      [() => quiet.confirm(providerId, 'requires_confirmation'), 'requires_confirmation', 'payment_failed'],
      [() => quiet.confirmStep(providerId), 'requires_capture', 'payment_authorized'],
      [() => quiet.capture(providerId), 'succeeded', 'paid'],
    ];
    for (const [index, [act, intentStatus, invoiceStatus]] of steps.entries()) {
      await act();
      // Every event so far, each twice, shuffled: old ones arrive after newer ones.
      const events = await eventsOf(providerId);
      for (const event of shuffled([...events, ...events], index + 11)) await quietHandler.handle(event);
      expect(await stateOf(created.payment_intent_id)).toMatchObject({ status: intentStatus, invoice_status: invoiceStatus });
    }
  });

  it('holds past the capture deadline are canceled once; the invoice is payable again and the buyer is told', async () => {
    const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
    const invoice = await newInvoice(buyer);
    const created = await payments.createPayment(buyer, invoice.id);
    const held = await payments.sandboxConfirm(buyer, created.payment_intent_id, card('4242424242424242', created.client_secret));
    expect(held).toEqual({ payment_intent: expect.objectContaining({ status: 'requires_capture' }), error: null });
    expect((await payments.adminList(admin)).payment_intents.find((p) => p.id === created.payment_intent_id)).toMatchObject({
      status: 'requires_capture',
      expires_soon: false,
      capture_deadline: expect.any(String),
      metadata: { website_title: 'Recipe blog', invoice_number: invoice.invoice_number },
    });

    expect(await sweep.sweep(new Date(Date.now() + 6 * DAY))).toBe(0);
    expect(await sweep.sweep(new Date(Date.now() + 7 * DAY + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await sweep.sweep(new Date(Date.now() + 7 * DAY + 60_000))).toBe(0);
    expect(await stateOf(created.payment_intent_id)).toMatchObject({ status: 'canceled', invoice_status: 'payment_canceled' });
    const outbox = await ds.query(`SELECT payload FROM outbox WHERE name = 'invoice.hold_expired' AND payload->>'invoice_id' = $1`, [invoice.id]);
    expect(outbox).toEqual([{ payload: expect.objectContaining({ buyer_id: buyer.user_id, seller_id: invoice.seller_id, payment_intent_id: created.payment_intent_id, test_mode: true }) }]);
    // A lapsed hold is its own event, not a refund.
    expect((await paymentEventsOf(invoice.id)).map((e) => e.name)).toEqual(['payment.authorized']);

    // Payable again: a new attempt (a new intent, a new idempotency key).
    const again = await payments.createPayment(buyer, invoice.id);
    expect(again).toMatchObject({ existing: false, status: 'requires_payment_method' });
    expect(again.payment_intent_id).not.toBe(created.payment_intent_id);
  });

  it('audits an admin capture and refund once, as soon as the provider did them, though reconciling failed and the admin retried', async () => {
    const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
    const invoice = await newInvoice(buyer);
    const created = await payments.createPayment(buyer, invoice.id);
    const id = created.payment_intent_id;
    await payments.sandboxConfirm(buyer, id, card('4242424242424242', created.client_secret));
    const acts = async () =>
      (await ds.query(`SELECT payload FROM outbox WHERE name = 'admin.acted' AND payload->>'target_id' = $1 ORDER BY seq`, [id])).map(
        (row: { payload: Record<string, unknown> }) => row.payload,
      );
    const common = { admin_id: admin.user_id, target_type: 'payment', target_id: id, target_label: invoice.invoice_number };

    // The provider captures; reading the intent back then fails, so neither its event nor the reconciliation applies.
    const retrieve = jest.spyOn(sandbox, 'retrieve').mockRejectedValue(new Error('Connection terminated unexpectedly'));
    try {
      await expect(payments.capture(admin, id, { amount_to_capture: null, reason: 'Domain transfer verified' })).rejects.toThrow('Connection terminated unexpectedly');
    } finally {
      retrieve.mockRestore();
    }
    expect(await stateOf(id)).toMatchObject({ status: 'requires_capture' });
    // The money moved, and the act is on record all the same.
    expect(await acts()).toEqual([expect.objectContaining({ ...common, action: 'payment.captured', before: { status: 'requires_capture' }, after: { status: 'succeeded' } })]);
    // The admin's retry is told it is done, and writes nothing more; the provider's event arrives later.
    await expect(payments.capture(admin, id, { amount_to_capture: null, reason: 'again' })).rejects.toMatchObject({ status: 400, detail: 'This payment has already been captured.' });
    await sandbox.redeliver(new Date(Date.now() + 60_000));
    expect(await stateOf(id)).toMatchObject({ status: 'succeeded', invoice_status: 'paid' });

    // The refund goes through at the provider; its reconciliation's transaction fails (the database).
    const sync = jest.spyOn(handler, 'sync').mockRejectedValueOnce(new Error('deadlock detected'));
    try {
      await expect(payments.refund(admin, id, { amount_to_refund: null, reason: 'Sale cancelled' })).rejects.toThrow('deadlock detected');
    } finally {
      sync.mockRestore();
    }
    await expect(payments.refund(admin, id, { amount_to_refund: null, reason: 'again' })).rejects.toMatchObject({ status: 400 });
    expect(await acts()).toEqual([
      expect.objectContaining({ ...common, action: 'payment.captured' }),
      expect.objectContaining({ ...common, action: 'payment.refunded', before: { status: 'succeeded' }, after: { status: 'canceled' } }),
    ]);
  });

  it('a double click makes one intent: concurrent creations share the idempotency key', async () => {
    const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
    const invoice = await newInvoice(buyer);
    const answers = await Promise.all([1, 2, 3, 4].map(() => payments.createPayment(buyer, invoice.id)));
    expect(new Set(answers.map((a) => a.payment_intent_id)).size).toBe(1);
    expect(answers.filter((a) => !a.existing)).toHaveLength(1);
    expect((await ds.query('SELECT count(*)::int AS n FROM payment_intents WHERE invoice_id = $1', [invoice.id]))[0].n).toBe(1);
    expect((await ds.query(`SELECT count(*)::int AS n FROM sandbox_intents WHERE metadata->>'invoice_id' = $1`, [invoice.id]))[0].n).toBe(1);
  });

  it('buy-now answers with a hosted checkout on the site when enabled, and the invoice fallback when not', async () => {
    const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
    const invoice = await newInvoice(buyer);
    const call = async (definition: RpcDefinition) => {
      if (definition !== RPC.bidding.buyNow) throw new Error(`unexpected ${definition.subject}`);
      return { bid_id: invoice.bid_id, listing_id: invoice.listing_id, amount: 4500 } satisfies BuyNowSale;
    };
    const rpc = { call } as unknown as ServiceRpc;
    const withCheckout = await new InvoicesService(invoices, rpc, { BUY_NOW_INVOICE_WAIT_MS: 100, BUY_NOW_CHECKOUT: true }, sandbox, payments).buyNow(buyer, invoice.listing_id);
    expect(withCheckout).toMatchObject({ redirect_to_payment: true, fallback_payment_required: false, invoice: { id: invoice.id } });
    const url = new URL(withCheckout.payment?.checkout_url ?? '');
    expect(url.origin).toBe('https://market.example');
    expect(url.pathname).toMatch(/^\/sandbox-checkout\/cs_sbx_[0-9a-f]{24}$/);
    expect(url.searchParams.get('invoice_id')).toBe(invoice.id);
    const [session] = await ds.query('SELECT success_url, cancel_url FROM sandbox_checkout_sessions WHERE id = $1', [url.pathname.split('/').pop()]);
    expect(session).toEqual({
      success_url: `https://market.example/payment-success?session_id=${url.pathname.split('/').pop()}&invoice_id=${invoice.id}`,
      cancel_url: `https://market.example/payment-cancel?invoice_id=${invoice.id}`,
    });
    const without = await new InvoicesService(invoices, rpc, { BUY_NOW_INVOICE_WAIT_MS: 100 }, sandbox, payments).buyNow(buyer, invoice.listing_id);
    expect(without).toMatchObject({ redirect_to_payment: false, payment: null, fallback_payment_required: true });
  });

  it('never stores a card number', async () => {
    const dump = JSON.stringify(await ds.query(`SELECT to_jsonb(t) AS row FROM (SELECT * FROM sandbox_intents) t`)) +
      JSON.stringify(await ds.query(`SELECT to_jsonb(t) AS row FROM (SELECT * FROM payment_intents) t`));
    for (const number of ['4242424242424242', '4000000000000002', '4000002760003184']) expect(dump).not.toContain(number);
  });
});
