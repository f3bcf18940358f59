import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RPC, type Actor } from '@market/contracts';
import { AppError, parseEnvOrThrow } from '@market/server-kit';
import { startServiceUnderTest, testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { billingAppModule } from '../app.module';
import { billingEnv } from '../billing.config';
import { InvoicesRepository } from '../invoices/invoices.repository';

const card = (client_secret: string) => ({ client_secret, card_number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' });

describe('retried payment writes move money once (Idempotency-Key, ADR 0047)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;
  let admin: Actor;

  /** An unpaid invoice of a new buyer, as a sale makes it. */
  const sale = async (): Promise<{ buyer: Actor; invoiceId: string }> => {
    const buyer = await testCaller(svc.env, { role: 'regular' });
    const { invoice } = await svc.app.get(InvoicesRepository).createForSale(
      {
        bid_id: randomUUID(),
        listing_id: randomUUID(),
        buyer_id: buyer.user_id,
        seller_id: randomUUID(),
        website_title: 'Recipe blog',
        website_url: null,
        sale_type: 'buy_now',
        amount: 4500,
        success_fee_percent: 0,
        payment_window_hours: 48,
      },
      new Date(),
    );
    return { buyer, invoiceId: invoice.id };
  };
  /** A sale whose buyer's card is authorised (funds held): the payment's id. */
  const held = async (): Promise<string> => {
    const { buyer, invoiceId } = await sale();
    const created = await svc.rpc.call(RPC.billing.createPayment, { id: invoiceId, request: {} }, buyer);
    await svc.rpc.call(RPC.billing.sandboxConfirm, { id: created.payment_intent_id, card: card(created.client_secret) }, buyer);
    return created.payment_intent_id;
  };
  const acts = async (paymentId: string, action: string) =>
    ((await ds.query(`SELECT 1 FROM outbox WHERE name = 'admin.acted' AND payload->>'target_id' = $1 AND payload->>'action' = $2`, [paymentId, action])) as unknown[])
      .length;
  const providerEvents = async (paymentId: string, type: string) =>
    ((await ds.query(
      `SELECT 1 FROM sandbox_events e JOIN payment_intents p ON p.provider_intent_id = e.intent_id WHERE p.id = $1 AND e.type = $2`,
      [paymentId, type],
    )) as unknown[]).length;
  const capture = (paymentId: string, key: string, reason = 'Transfer verified') =>
    svc.rpc.call(RPC.billing.adminCapture, { id: paymentId, request: { amount_to_capture: null, reason } }, admin, { idempotency: { key } });

  beforeAll(async () => {
    svc = await startServiceUnderTest('billing-service', (env) => {
      const config = parseEnvOrThrow(billingEnv, { ...env, PAYMENTS_PROVIDER: 'sandbox' });
      return { module: billingAppModule(config), config };
    });
    ds = svc.app.get(DataSource);
    admin = await testCaller(svc.env, { role: 'admin' });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it("the buyer's payment retried with its key answers the same payment; one is made", async () => {
    const { buyer, invoiceId } = await sale();
    const key = randomUUID();
    const first = await svc.rpc.call(RPC.billing.createPayment, { id: invoiceId, request: {} }, buyer, { idempotency: { key } });
    const again = await svc.rpc.call(RPC.billing.createPayment, { id: invoiceId, request: {} }, buyer, { idempotency: { key } });
    expect(again).toEqual(first);
    expect(first.existing).toBe(false);
    expect(await ds.query('SELECT id FROM payment_intents WHERE invoice_id = $1', [invoiceId])).toEqual([{ id: first.payment_intent_id }]);
  });

  it('a capture retried with its key answers the first success and captures once; another reason under it is 422', async () => {
    const paymentId = await held();
    const key = randomUUID();
    const first = await capture(paymentId, key);
    expect(first.payment_intent.status).toBe('succeeded');
    expect(await capture(paymentId, key)).toEqual(first);
    const refused = await capture(paymentId, key, 'Another reason').catch((error: unknown) => error);
    expect((refused as AppError).status).toBe(422);
    expect(await acts(paymentId, 'payment.captured')).toBe(1);
    expect(await providerEvents(paymentId, 'payment_intent.succeeded')).toBe(1);
  });

  it('concurrent duplicate captures capture once', async () => {
    const paymentId = await held();
    const key = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        capture(paymentId, key).then(
          (answer) => answer.payment_intent.status,
          (error: unknown) => (error as AppError).status,
        ),
      ),
    );
    expect(outcomes).toContain('succeeded');
    for (const outcome of outcomes) expect(['succeeded', 409]).toContain(outcome);
    expect(await acts(paymentId, 'payment.captured')).toBe(1);
    expect(await providerEvents(paymentId, 'payment_intent.succeeded')).toBe(1);
  });

  it('a refund retried with its key refunds once', async () => {
    const paymentId = await held();
    const key = randomUUID();
    const refund = () =>
      svc.rpc.call(RPC.billing.adminRefund, { id: paymentId, request: { amount_to_refund: null, reason: 'Cancelled' } }, admin, { idempotency: { key } });
    const first = await refund();
    expect(await refund()).toEqual(first);
    expect(await acts(paymentId, 'payment.refunded')).toBe(1);
    expect(await providerEvents(paymentId, 'payment_intent.canceled')).toBe(1);
  });
});
