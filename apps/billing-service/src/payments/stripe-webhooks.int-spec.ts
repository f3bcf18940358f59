import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import { shuffled, type TestDatabase, outboxPayload } from '@market/server-kit/testing';
import type { InvoiceRecord } from '../invoices/invoices.repository';
import { PaymentEventsHandler } from './payment-events.handler';
import { PaymentsService } from './payments.service';
import { StripeProvider, stripeClient } from './stripe-provider';
import { StripeWebhooks } from './stripe-webhooks';
import { StripeStandIn } from './testing/stripe-stand-in';
import { member, openBillingDatabase, saleInvoice, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';
import { ledgerState } from '../testing/ledger-checks';

const SECRET = 'whsec_stand_in_secret';

describe('Stripe webhooks: verified on the exact bytes, deduplicated, correct in any order (ADR 0023)', () => {
  const standIn = new StripeStandIn();
  let db: TestDatabase;
  let ds: DataSource;
  let b: BillingUnderTest;
  let provider: StripeProvider;
  let handler: PaymentEventsHandler;
  let payments: PaymentsService;
  let webhooks: StripeWebhooks;
  const admin: Actor = { user_id: randomUUID(), role: 'admin' };

  /** Signs an event as Stripe would (optionally with another secret or an older timestamp) and delivers it. */
  const deliver = (event: object, sign: { secret?: string; timestamp?: number; payload?: string } = {}) => {
    const payload = JSON.stringify(event);
    const header = provider.stripe.webhooks.generateTestHeaderString({ payload, secret: sign.secret ?? SECRET, timestamp: sign.timestamp });
    return webhooks.receive(Buffer.from(sign.payload ?? payload).toString('base64'), header);
  };
  const newInvoice = (buyer: Actor, seller: Actor = member()): Promise<InvoiceRecord> =>
    saleInvoice(b.invoices, { buyer, seller }, { amount: 4500, success_fee_percent: 0 });
  /** The seller finishes Stripe's hosted onboarding; Stripe's account.updated reaches the webhook (D22). */
  const onboardAtStripe = async (seller: Actor) => {
    await b.accounts.onboarding(seller);
    const account = (await b.accountRecords.find(seller.user_id))!;
    standIn.completeOnboarding(account.provider_account_id, 'complete');
    expect(await deliver(standIn.events.at(-1) as object)).toEqual({ received: true, result: 'applied' });
    expect(await b.accounts.get(seller)).toEqual({ status: 'enabled', requirements_due: [] });
  };
  const stateOf = async (intentId: string) => {
    const [row] = await ds.query(
      `SELECT p.status, p.last_error, p.authorized_at, p.captured_at, p.succeeded_at, p.refunded_at, p.canceled_at, i.status AS invoice_status, i.paid_at,
         i.cancel_reason
       FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = $1`,
      [intentId],
    );
    return row;
  };
  const invoiceState = async (invoiceId: string) => ({
    invoice: (await ds.query('SELECT status FROM invoices WHERE id = $1', [invoiceId]))[0].status,
    intents: (await ds.query('SELECT status, authorized_at IS NOT NULL AS authorized FROM payment_intents WHERE invoice_id = $1 ORDER BY created_at', [invoiceId])),
  });
  const providerIdOf = async (intentId: string): Promise<string> =>
    (await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [intentId]))[0].provider_intent_id;
  const seen = async (eventId: string): Promise<number> => (await ds.query('SELECT count(*)::int AS n FROM provider_events WHERE id = $1', [eventId]))[0].n;

  beforeAll(async () => {
    const port = await standIn.start();
    ({ db, ds } = await openBillingDatabase('billing'));
    provider = new StripeProvider(stripeClient({ STRIPE_SECRET_KEY: 'sk_test_stand_in', STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: port, STRIPE_API_PROTOCOL: 'http' }));
    b = wireBilling(ds, { provider, config: { STRIPE_WEBHOOK_SECRET: SECRET } });
    handler = b.handler;
    payments = b.payments;
    webhooks = new StripeWebhooks(handler, b.router, b.intents, b.invoices, provider, b.config);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
    await standIn.stop();
  });

  it('accepts a signed event once; a bad, tampered or 301 s old signature is a 400 that changes nothing', async () => {
    const buyer = member();
    const invoice = await newInvoice(buyer);
    const created = await payments.createPayment(buyer, invoice.id);
    expect(created).toMatchObject({ provider: 'stripe', status: 'requires_payment_method', existing: false });
    standIn.authorize(await providerIdOf(created.payment_intent_id));
    const event = standIn.events.at(-1) as { id: string; type: string };
    expect(event.type).toBe('payment_intent.amount_capturable_updated');
    const before = await stateOf(created.payment_intent_id);
    expect(before).toMatchObject({ status: 'requires_payment_method', invoice_status: 'awaiting_payment' });

    const refusals = [
      deliver(event, { secret: 'whsec_someone_else' }),
      deliver(event, { payload: JSON.stringify({ ...event, id: 'evt_forged' }) }),
      deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    ];
    for (const refusal of refusals) {
      const error = await refusal.then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 400, detail: expect.stringMatching(/^Webhook signature verification failed: /) });
    }
    expect(await seen(event.id)).toBe(0);
    expect(await stateOf(created.payment_intent_id)).toEqual(before);

    expect(await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 250 })).toEqual({ received: true, result: 'applied' });
    expect(await deliver(event)).toEqual({ received: true, result: 'duplicate' });
    expect(await stateOf(created.payment_intent_id)).toMatchObject({ status: 'requires_capture', invoice_status: 'payment_authorized' });
    // Real money through Stripe: the emails carry no test-mode notice (ADR 0033).
    const told = await ds.query(`SELECT payload->'test_mode' AS test_mode FROM outbox WHERE name = 'payment.authorized' AND payload->>'payment_intent_id' = $1`, [created.payment_intent_id]);
    expect(told).toEqual([{ test_mode: false }]);
    expect(await deliver({ ...event, id: 'evt_unused', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } })).toEqual({
      received: true,
      result: 'ignored',
    });
  });

  it('audits an admin capture once, right after Stripe captured, though reconciling failed and the retry was replayed', async () => {
    const buyer = member();
    const seller = member();
    await onboardAtStripe(seller);
    const invoice = await newInvoice(buyer, seller);
    const created = await payments.createPayment(buyer, invoice.id);
    const id = created.payment_intent_id;
    const providerId = await providerIdOf(id);
    standIn.authorize(providerId);
    await deliver(standIn.events.at(-1) as object);
    const acts = async () =>
      Promise.all((await ds.query(`SELECT payload FROM outbox WHERE name = 'admin.acted' AND payload->>'target_id' = $1 ORDER BY seq`, [id])).map(
        (row: { payload: Record<string, unknown> }) => outboxPayload(ds, 'admin.acted', row.payload),
      ));
    const captures = () => standIn.requests.filter((r) => r.path === `/v1/payment_intents/${providerId}/capture`).map((r) => r.replayed);
    const transfers = () => standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/transfers');

    // Release Funds (D22) first captures into escrow: Stripe captures, the reconciling transaction then fails (the
    // database went away) and the admin sees an error. Nothing was released.
    const sync = jest.spyOn(handler, 'sync').mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    try {
      await expect(payments.capture(admin, id, { amount_to_capture: null, reason: 'Domain transfer verified' })).rejects.toThrow('Connection terminated unexpectedly');
    } finally {
      sync.mockRestore();
    }
    expect(standIn.intent(providerId)).toMatchObject({ status: 'succeeded' });
    expect(await stateOf(id)).toMatchObject({ status: 'requires_capture' });
    expect(await b.payoutRecords.findByInvoice(invoice.id)).toBeNull();

    // The retry: Stripe replays the capture under its idempotency key, the seller is paid, and reconciling the payment
    // then fails; the admin is answered from what was recorded, and the act is on record, right after the money moved.
    const realSync = handler.sync.bind(handler);
    const paidOut = async () => (await b.payoutRecords.findByInvoice(invoice.id))?.status === 'paid';
    let failedSyncs = 0;
    const failing = jest.spyOn(handler, 'sync').mockImplementation(async (intentId) => {
      if (!(await paidOut())) return realSync(intentId);
      failedSyncs += 1;
      throw new Error('Connection terminated unexpectedly');
    });
    try {
      const answer = await payments.capture(admin, id, { amount_to_capture: null, reason: 'Domain transfer verified' });
      expect(answer.message).toMatch(/^Payment captured successfully! \S+ was sent to the seller's payout account\.$/);
    } finally {
      failing.mockRestore();
    }
    expect(failedSyncs).toBeGreaterThan(0);
    expect(captures()).toEqual([false, true]);
    expect(await stateOf(id)).toMatchObject({ status: 'succeeded', invoice_status: 'paid' });
    const captured = expect.objectContaining({
      admin_id: admin.user_id,
      action: 'payment.captured',
      target_type: 'payment',
      target_id: id,
      before: { status: 'requires_capture' },
      after: { status: 'succeeded' },
    });
    expect(await acts()).toEqual([captured]);

    // Once more: the same release, no second capture or transfer, and the act stays one.
    const again = await payments.capture(admin, id, { amount_to_capture: null, reason: 'Domain transfer verified' });
    expect(again.payment_intent).toMatchObject({ status: 'succeeded', payout: expect.objectContaining({ status: 'paid' }) });
    expect(captures()).toEqual([false, true]);
    expect(transfers()).toHaveLength(1);
    expect(transfers()[0].params).toMatchObject({ amount: '450000', destination: (await b.accountRecords.find(seller.user_id))?.provider_account_id, transfer_group: invoice.id });
    expect(await acts()).toEqual([captured]);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true, payablesMatchUnsentPayouts: true });
  });

  it('each event of a payment replayed five times in shuffled orders leaves the state in-order delivery left', async () => {
    const buyer = member();
    const seller = member();
    const invoice = await newInvoice(buyer, seller);
    const created = await payments.createPayment(buyer, invoice.id);
    const providerId = await providerIdOf(created.payment_intent_id);
    const from = standIn.events.length;
    standIn.decline(providerId);
    standIn.requireAction(providerId);
    standIn.authorize(providerId);
    for (const event of standIn.events.slice(from)) await deliver(event);
    expect(await stateOf(created.payment_intent_id)).toMatchObject({ status: 'requires_capture', invoice_status: 'payment_authorized', last_error: null });
    // The seller starts the transfer: the hold is captured into escrow (D22); the admin then refunds it from there.
    const started = await b.transfer.markTransferStarted(seller, invoice.id);
    expect(started.invoice).toMatchObject({ status: 'payment_authorized', escrow: { captured_at: expect.any(String) } });
    expect((await b.payments.adminList(admin)).payment_intents.find((p) => p.id === created.payment_intent_id)).toMatchObject({
      status: 'succeeded',
      stripe_payment_intent_id: providerId,
    });
    const refund = await payments.refund(admin, created.payment_intent_id, { amount_to_refund: null, reason: 'Transaction cancelled by admin' });
    expect(refund.payment_intent.refunded_at).not.toBeNull();
    const events = standIn.events.slice(from) as { id: string; type: string }[];
    expect(events.map((e) => e.type)).toEqual([
      'payment_intent.payment_failed',
      'payment_intent.requires_action',
      'payment_intent.amount_capturable_updated',
      'payment_intent.succeeded',
      'charge.refunded',
    ]);
    for (const event of events.slice(3)) expect(await deliver(event)).toEqual({ received: true, result: 'applied' });
    // The buyer has the money back, so the sale is over (D22): cancelled, not payable again.
    const final = await stateOf(created.payment_intent_id);
    expect(final).toMatchObject({ status: 'canceled', invoice_status: 'cancelled', cancel_reason: 'refunded', last_error: null, paid_at: null });
    expect(final.captured_at).not.toBeNull();
    expect(final.refunded_at).not.toBeNull();

    const replays = events.flatMap((e) => Array.from({ length: 5 }, () => e));
    for (const seed of [1, 2, 3]) {
      // As if none had arrived: back to the start, then the 25 deliveries in another order.
      await ds.query(`UPDATE payment_intents SET status = 'requires_payment_method', authorized_at = NULL, captured_at = NULL, succeeded_at = NULL,
        refunded_at = NULL, canceled_at = NULL, last_error = NULL WHERE id = $1`, [created.payment_intent_id]);
      await ds.query(`UPDATE invoices SET status = 'awaiting_payment', paid_at = NULL, cancelled_at = NULL, cancel_reason = NULL WHERE id = $1`, [invoice.id]);
      await ds.query('DELETE FROM provider_events WHERE id = ANY($1::text[])', [events.map((e) => e.id)]);
      const results = [];
      for (const event of shuffled(replays, seed)) results.push((await deliver(event)).result);
      expect(results.filter((r) => r === 'applied')).toHaveLength(5);
      expect(await stateOf(created.payment_intent_id)).toEqual(final);
    }
    // Each movement of money was booked once, with Stripe's balance transactions, however often its notice came.
    expect((await b.ledger.forInvoice(invoice.id)).map((t) => t.kind)).toEqual(['authorization', 'capture', 'refund_owed', 'refund_paid']);
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, escrowMatchesHeldInvoices: true, holdsMatchUncaptured: true });
  });

  it('a completed Checkout Session records its intent (closing the unfinished dialog payment), in any order', async () => {
    const outcomes = [];
    for (const order of ['in order', 'shuffled'] as const) {
      const buyer = member();
      const invoice = await newInvoice(buyer);
      const dialog = await payments.createPayment(buyer, invoice.id);
      const { checkout_url } = await payments.createCheckoutSession(buyer, invoice.id);
      const sessionId = checkout_url.split('/').pop() as string;
      expect(checkout_url).toBe(`https://checkout.stand-in.test/c/pay/${sessionId}`);
      const from = standIn.events.length;
      const made = standIn.completeCheckout(sessionId);
      const sent = standIn.events.slice(from);
      expect(sent.map((e) => e.type)).toEqual(['payment_intent.amount_capturable_updated', 'checkout.session.completed']);
      const deliveries = order === 'in order' ? sent : shuffled(sent.flatMap((e) => [e, e, e, e, e]), 5);
      for (const event of deliveries) await deliver(event);
      // Recording it canceled the dialog's intent at Stripe, which sends that event too.
      const later = standIn.events.slice(from + sent.length);
      expect(later.map((e) => [e.type, e.data.object.id])).toEqual([['payment_intent.canceled', await providerIdOf(dialog.payment_intent_id)]]);
      for (const event of order === 'in order' ? later : [...later, ...later, ...later, ...later, ...later]) await deliver(event);
      expect((await ds.query('SELECT provider_intent_id FROM payment_intents WHERE invoice_id = $1 ORDER BY created_at', [invoice.id])).map(
        (r: { provider_intent_id: string }) => r.provider_intent_id,
      )).toEqual([await providerIdOf(dialog.payment_intent_id), made.id]);
      outcomes.push(await invoiceState(invoice.id));
    }
    expect(outcomes[0]).toEqual({
      invoice: 'payment_authorized',
      intents: [
        { status: 'canceled', authorized: false },
        { status: 'requires_capture', authorized: true },
      ],
    });
    expect(outcomes[1]).toEqual(outcomes[0]);
  });

  it('answers 404 while the provider is the sandbox', async () => {
    const sandbox = wireBilling(ds, { listen: false });
    const sandboxWebhooks = new StripeWebhooks(sandbox.handler, sandbox.router, sandbox.intents, sandbox.invoices, sandbox.provider, { STRIPE_WEBHOOK_SECRET: undefined });
    await expect(sandboxWebhooks.receive(Buffer.from('{}').toString('base64'), 't=1,v1=00')).rejects.toMatchObject({ status: 404 });
  });
});
