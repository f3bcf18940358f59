import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RPC, type Actor, type BuyNowSale, type RpcDefinition } from '@market/contracts';
import type { ServiceRpc } from '@market/server-kit';
import { shuffled, type TestDatabase, outboxPayload } from '@market/server-kit/testing';
import type { InvoiceRecord } from '../invoices/invoices.repository';
import { InvoicesService } from '../invoices/invoices.service';
import { SandboxProvider } from './sandbox.provider';
import { PaymentEventsHandler } from './payment-events.handler';
import { PaymentsService } from './payments.service';
import type { PaymentEvent } from './payment-provider';
import { heldSale, member, onboard, openBillingDatabase, saleInvoice, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';
import { ledgerState } from '../testing/ledger-checks';

const DAY = 24 * 3600_000;
const card = (number: string, client_secret: string) => ({ client_secret, card_number: number, exp_month: 12, exp_year: 2099, cvc: '123' });

describe('card payments through the sandbox provider (D11, D12)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let b: BillingUnderTest;
  let sandbox: SandboxProvider;
  let handler: PaymentEventsHandler;
  let payments: PaymentsService;
  const admin: Actor = { user_id: randomUUID(), role: 'admin' };

  const newInvoice = (buyer: Actor, seller: Actor = member(), amount = 4500): Promise<InvoiceRecord> =>
    saleInvoice(b.invoices, { buyer, seller }, { amount, success_fee_percent: 0 });
  const stateOf = async (intentId: string) => {
    const [row] = await ds.query(
      `SELECT p.status, p.last_error, p.authorized_at, p.captured_at, p.succeeded_at, p.refunded_at, p.canceled_at, i.status AS invoice_status, i.paid_at,
         i.cancel_reason
       FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = $1`,
      [intentId],
    );
    return row;
  };
  const eventsOf = async (providerIntentId: string): Promise<PaymentEvent[]> =>
    ds.query('SELECT id, type, intent_id, at FROM sandbox_events WHERE intent_id = $1 ORDER BY at', [providerIntentId]);
  const paymentEventsOf = (invoiceId: string): Promise<{ name: string; payload: Record<string, unknown> }[]> =>
    ds.query(`SELECT name, payload FROM outbox WHERE name LIKE 'payment.%' AND payload->>'invoice_id' = $1 ORDER BY seq`, [invoiceId]);
  const providerIdOf = async (intentId: string): Promise<string> =>
    (await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [intentId]))[0].provider_intent_id;

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing'));
    b = wireBilling(ds);
    sandbox = b.provider as SandboxProvider;
    handler = b.handler;
    payments = b.payments;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('replaying every provider event 5 times in shuffled orders leaves the state the flow left', async () => {
    const buyer = member();
    const seller = member();
    const invoice = await newInvoice(buyer, seller);
    const created = await payments.createPayment(buyer, invoice.id);
    const declined = await payments.sandboxConfirm(buyer, created.payment_intent_id, card('4000 0000 0000 0002', created.client_secret));
    expect(declined.error).toEqual({ code: 'card_declined', message: 'Your card was declined.' });
    const action = await payments.sandboxConfirm(buyer, created.payment_intent_id, card('4000002760003184', created.client_secret));
    expect(action.payment_intent.status).toBe('requires_confirmation');
    await payments.sandboxConfirmStep(buyer, created.payment_intent_id, created.client_secret);
    // The seller starts the transfer: the hold is captured into escrow (D22); the admin then refunds it from there.
    await b.transfer.markTransferStarted(seller, invoice.id);
    await payments.refund(admin, created.payment_intent_id, { amount_to_refund: null, reason: 'Transaction cancelled by admin' });

    // The buyer has the money back, so the sale is over (D22): cancelled, not payable again.
    const final = await stateOf(created.payment_intent_id);
    expect(final).toMatchObject({ status: 'canceled', invoice_status: 'cancelled', cancel_reason: 'refunded', last_error: null, paid_at: null });
    expect(final.captured_at).not.toBeNull();
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
    expect(new Set(await Promise.all(replays.map((e) => b.router.handle(e))))).toEqual(new Set(['duplicate']));
    expect(await stateOf(created.payment_intent_id)).toEqual(final);
    // One payment.* event per real change, whatever the provider repeated (D19 emails); payment.captured is the capture into escrow.
    expect(await paymentEventsOf(invoice.id)).toEqual([
      { name: 'payment.authorized', payload: expect.objectContaining({ buyer_id: buyer.user_id, seller_id: invoice.seller_id, amount: 4500, invoice_number: invoice.invoice_number, test_mode: true }) },
      { name: 'payment.captured', payload: expect.objectContaining({ payment_intent_id: created.payment_intent_id }) },
      { name: 'payment.refunded', payload: expect.objectContaining({ payment_intent_id: created.payment_intent_id }) },
    ]);
    // The sale is unwound once, with no strike for the buyer; each movement of money is one ledger transaction.
    const lapses = await ds.query(`SELECT payload FROM outbox WHERE name = 'sale.lapsed' AND payload->>'invoice_id' = $1`, [invoice.id]);
    expect(lapses).toEqual([{ payload: expect.objectContaining({ reason: 'refunded', strike: false, listing_id: invoice.listing_id }) }]);
    expect((await b.ledger.forInvoice(invoice.id)).map((t) => t.kind)).toEqual(['authorization', 'capture', 'refund_owed', 'refund_paid']);

    // As if none had arrived yet: back to the start, then the 25 deliveries in three different orders.
    for (const seed of [1, 2, 3]) {
      await ds.query(`UPDATE payment_intents SET status = 'requires_payment_method', authorized_at = NULL, captured_at = NULL, succeeded_at = NULL,
        refunded_at = NULL, canceled_at = NULL, last_error = NULL WHERE id = $1`, [created.payment_intent_id]);
      await ds.query(`UPDATE invoices SET status = 'awaiting_payment', paid_at = NULL, cancelled_at = NULL, cancel_reason = NULL WHERE id = $1`, [invoice.id]);
      await ds.query('DELETE FROM provider_events WHERE id = ANY($1::text[])', [events.map((e) => e.id)]);
      for (const event of shuffled(replays, seed)) await b.router.handle(event);
      expect(await stateOf(created.payment_intent_id)).toEqual(final);
      expect((await ds.query('SELECT count(*)::int AS n FROM provider_events WHERE id = ANY($1::text[])', [events.map((e) => e.id)]))[0].n).toBe(5);
    }
    // The replays wrote no ledger transaction twice: the money is where the flow left it.
    expect((await b.ledger.forInvoice(invoice.id)).map((t) => t.kind)).toEqual(['authorization', 'capture', 'refund_owed', 'refund_paid']);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true, holdsMatchUncaptured: true });
  });

  it('events delivered late, twice and out of order while the payment moves never take it backwards', async () => {
    // A second handle on the same sandbox that delivers nothing by itself: this test delivers its events.
    const quiet = new SandboxProvider(ds, 'https://market.example');
    const quietHandler = new PaymentEventsHandler(ds, quiet, b.ledger, b.config);
    const buyer = member();
    const invoice = await newInvoice(buyer);
    const created = await payments.createPayment(buyer, invoice.id);
    const providerId = await providerIdOf(created.payment_intent_id);
    const steps: [() => Promise<unknown>, string, string][] = [
      [() => quiet.confirm(providerId, 'card_declined'), 'requires_payment_method', 'payment_failed'],
      [() => quiet.confirm(providerId, 'requires_confirmation'), 'requires_confirmation', 'payment_failed'],
      [() => quiet.confirmStep(providerId), 'requires_capture', 'payment_authorized'],
      // Captured into escrow (D22): the funds stay held, the invoice is paid only by the payout.
      [() => quiet.capture(providerId), 'succeeded', 'payment_authorized'],
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
    const buyer = member();
    // A one-hour payment window, long gone by the time the hold lapses.
    const invoice = await saleInvoice(b.invoices, { buyer, seller: member() }, { amount: 4500, success_fee_percent: 0, payment_window_hours: 1 });
    const created = await payments.createPayment(buyer, invoice.id);
    const held = await payments.sandboxConfirm(buyer, created.payment_intent_id, card('4242424242424242', created.client_secret));
    expect(held).toEqual({ payment_intent: expect.objectContaining({ status: 'requires_capture' }), error: null });
    expect((await payments.adminList(admin)).payment_intents.find((p) => p.id === created.payment_intent_id)).toMatchObject({
      status: 'requires_capture',
      expires_soon: false,
      capture_deadline: expect.any(String),
      metadata: { website_title: 'Recipe blog', invoice_number: invoice.invoice_number },
    });

    const sweep = b.holdSweep;
    expect(await sweep.sweep(new Date(Date.now() + 6 * DAY))).toBe(0);
    const lapsedFrom = Date.now();
    expect(await sweep.sweep(new Date(Date.now() + 7 * DAY + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await sweep.sweep(new Date(Date.now() + 7 * DAY + 60_000))).toBe(0);
    expect(await stateOf(created.payment_intent_id)).toMatchObject({ status: 'canceled', invoice_status: 'payment_canceled' });
    // Payable within a new payment window from the lapse (D11 as amended by D22), and the hold left the ledger.
    const lapsed = await b.invoices.findById(invoice.id);
    expect(lapsed?.pay_by?.getTime()).toBeGreaterThanOrEqual(lapsedFrom + b.config.PAYMENT_WINDOW_HOURS * 3600_000);
    expect((await b.ledger.forInvoice(invoice.id)).map((t) => t.kind)).toEqual(['authorization', 'hold_released']);
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
    const acts = async (intentId: string) =>
      Promise.all((await ds.query(`SELECT payload FROM outbox WHERE name = 'admin.acted' AND payload->>'target_id' = $1 ORDER BY seq`, [intentId])).map(
        (row: { payload: Record<string, unknown> }) => outboxPayload(ds, 'admin.acted', row.payload),
      ));
    const common = (intentId: string, invoice: InvoiceRecord) => ({ admin_id: admin.user_id, target_type: 'payment', target_id: intentId, target_label: invoice.invoice_number });

    // Release Funds (D22): the hold is captured into escrow and the seller paid out; reading the intent back then fails.
    const released = await heldSale(b);
    await onboard(b, released.seller);
    const realRetrieve = sandbox.retrieve.bind(sandbox);
    const paidOut = async () => (await b.payoutRecords.findByInvoice(released.invoice.id))?.status === 'paid';
    let failedReads = 0;
    const retrieve = jest.spyOn(sandbox, 'retrieve').mockImplementation(async (intentId) => {
      if (!(await paidOut())) return realRetrieve(intentId);
      failedReads += 1;
      throw new Error('Connection terminated unexpectedly');
    });
    let first: Awaited<ReturnType<PaymentsService['capture']>>;
    try {
      first = await payments.capture(admin, released.intentId, { amount_to_capture: null, reason: 'Domain transfer verified' });
    } finally {
      retrieve.mockRestore();
    }
    // The reconciliation after the payout could not read the provider; the admin is answered from what was recorded.
    expect(failedReads).toBeGreaterThan(0);
    expect(first.message).toMatch(/^Payment captured successfully! \S+ was sent to the seller's payout account\.$/);
    // The money moved, and the act is on record all the same.
    expect(await stateOf(released.intentId)).toMatchObject({ status: 'succeeded', invoice_status: 'paid' });
    expect(await acts(released.intentId)).toEqual([
      expect.objectContaining({ ...common(released.intentId, released.invoice), action: 'payment.captured', before: { status: 'requires_capture' }, after: { status: 'succeeded' } }),
    ]);
    // The admin's retry is the same release: told it is done, no second transfer, nothing more written.
    const again = await payments.capture(admin, released.intentId, { amount_to_capture: null, reason: 'again' });
    expect(again.message).toMatch(/^Payment captured successfully! \S+ was sent to the seller's payout account\.$/);
    expect(again.payment_intent.payout).toMatchObject({ status: 'paid' });
    expect(await ds.query('SELECT id FROM sandbox_transfers WHERE transfer_group = $1', [released.invoice.id])).toHaveLength(1);
    expect(await acts(released.intentId)).toHaveLength(1);

    // A refund from escrow (captured when the seller started the transfer) goes through at the provider; its
    // reconciliation's transaction fails (the database).
    const refunded = await heldSale(b);
    await b.transfer.markTransferStarted(refunded.seller, refunded.invoice.id);
    expect(await stateOf(refunded.intentId)).toMatchObject({ status: 'succeeded', invoice_status: 'payment_authorized' });
    const sync = jest.spyOn(handler, 'sync').mockRejectedValueOnce(new Error('deadlock detected'));
    try {
      const answer = await payments.refund(admin, refunded.intentId, { amount_to_refund: null, reason: 'Sale cancelled' });
      expect(answer.message).toMatch(/^Payment refunded successfully!/);
      await expect(sync.mock.results[0]?.value).rejects.toThrow('deadlock detected');
    } finally {
      sync.mockRestore();
    }
    await expect(payments.refund(admin, refunded.intentId, { amount_to_refund: null, reason: 'again' })).rejects.toMatchObject({ status: 400 });
    expect(await acts(refunded.intentId)).toEqual([
      expect.objectContaining({ ...common(refunded.intentId, refunded.invoice), action: 'payment.refunded', before: { status: 'succeeded' }, after: { status: 'canceled' } }),
    ]);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true, payablesMatchUnsentPayouts: true });
  });

  it('a double click makes one intent: concurrent creations share the idempotency key', async () => {
    const buyer = member();
    const invoice = await newInvoice(buyer);
    const answers = await Promise.all([1, 2, 3, 4].map(() => payments.createPayment(buyer, invoice.id)));
    expect(new Set(answers.map((a) => a.payment_intent_id)).size).toBe(1);
    expect(answers.filter((a) => !a.existing)).toHaveLength(1);
    expect((await ds.query('SELECT count(*)::int AS n FROM payment_intents WHERE invoice_id = $1', [invoice.id]))[0].n).toBe(1);
    expect((await ds.query(`SELECT count(*)::int AS n FROM sandbox_intents WHERE metadata->>'invoice_id' = $1`, [invoice.id]))[0].n).toBe(1);
  });

  it('buy-now answers with a hosted checkout on the site when enabled, and the invoice fallback when not', async () => {
    const buyer = member();
    const invoice = await newInvoice(buyer);
    const call = async (definition: RpcDefinition) => {
      if (definition !== RPC.bidding.buyNow) throw new Error(`unexpected ${definition.subject}`);
      return { bid_id: invoice.bid_id, listing_id: invoice.listing_id, amount: 4500 } satisfies BuyNowSale;
    };
    const rpc = { call } as unknown as ServiceRpc;
    const withCheckout = await new InvoicesService(b.invoices, rpc, { BUY_NOW_INVOICE_WAIT_MS: 100, BUY_NOW_CHECKOUT: true }, sandbox, payments).buyNow(buyer, invoice.listing_id);
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
    const without = await new InvoicesService(b.invoices, rpc, { BUY_NOW_INVOICE_WAIT_MS: 100 }, sandbox, payments).buyNow(buyer, invoice.listing_id);
    expect(without).toMatchObject({ redirect_to_payment: false, payment: null, fallback_payment_required: true });
  });

  it('never stores a card number', async () => {
    const dump = JSON.stringify(await ds.query(`SELECT to_jsonb(t) AS row FROM (SELECT * FROM sandbox_intents) t`)) +
      JSON.stringify(await ds.query(`SELECT to_jsonb(t) AS row FROM (SELECT * FROM payment_intents) t`));
    for (const number of ['4242424242424242', '4000000000000002', '4000002760003184']) expect(dump).not.toContain(number);
  });
});
