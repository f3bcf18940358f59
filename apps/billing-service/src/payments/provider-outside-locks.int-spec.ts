import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import type { TestDatabase } from '@market/server-kit/testing';
import type { InvoiceRecord } from '../invoices/invoices.repository';
import { UnpaidSalesRepository } from '../invoices/unpaid-sales.repository';
import { EndUnpaidSale } from '../invoices/end-unpaid-sale';
import { PaymentWindowSweep } from '../invoices/payment-window.sweep';
import { SandboxProvider } from './sandbox.provider';
import { PaymentEventsHandler } from './payment-events.handler';
import { PaymentsService } from './payments.service';
import { member, onboard, openBillingDatabase, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';

const HOUR = 3600_000;
const card = (number: string, client_secret: string) => ({ client_secret, card_number: number, exp_month: 12, exp_year: 2099, cvc: '123' });

class Rollback extends Error {}

describe('provider calls never wait under a row lock (ADR 0047)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let b: BillingUnderTest;
  let sandbox: SandboxProvider;
  let handler: PaymentEventsHandler;
  let payments: PaymentsService;
  let sweep: PaymentWindowSweep;
  /** Every provider call as it started: its method, and whether its invoice or payment row was locked by anyone. */
  let calls: { method: string; locked: boolean }[];

  /** Tries to lock the intent's invoice and payment rows from another connection without waiting, then lets go. */
  const lockedNow = async (providerIntentId: string): Promise<boolean> => {
    try {
      await ds.transaction(async (manager) => {
        await manager.query(
          `SELECT 1 FROM invoices i JOIN payment_intents p ON p.invoice_id = i.id WHERE p.provider_intent_id = $1 FOR UPDATE OF i, p NOWAIT`,
          [providerIntentId],
        );
        throw new Rollback();
      });
    } catch (error) {
      if (error instanceof Rollback) return false;
      if ((error as { driverError?: { code?: string } }).driverError?.code === '55P03') return true;
      throw error;
    }
    return false;
  };
  /** The same for a payout (D22): its invoice and payout rows, from another connection without waiting. */
  const payoutLockedNow = async (invoiceId: string): Promise<boolean> => {
    try {
      await ds.transaction(async (manager) => {
        await manager.query('SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE NOWAIT', [invoiceId]);
        await manager.query('SELECT 1 FROM payouts WHERE invoice_id = $1 FOR UPDATE NOWAIT', [invoiceId]);
        throw new Rollback();
      });
    } catch (error) {
      if (error instanceof Rollback) return false;
      if ((error as { driverError?: { code?: string } }).driverError?.code === '55P03') return true;
      throw error;
    }
    return false;
  };
  const watch = (method: 'retrieve' | 'capture' | 'cancel') => {
    const original = sandbox[method].bind(sandbox) as (id: string, ...rest: never[]) => Promise<unknown>;
    jest.spyOn(sandbox, method).mockImplementation((async (id: string, ...rest: never[]) => {
      calls.push({ method, locked: await lockedNow(id) });
      return original(id, ...rest);
    }) as never);
  };
  /** The payout's transfer to the seller (D22), named by its invoice (the transfer group). */
  const watchTransfers = () => {
    const original = sandbox.connect.createTransfer.bind(sandbox.connect);
    jest.spyOn(sandbox.connect, 'createTransfer').mockImplementation(async (input) => {
      calls.push({ method: 'createTransfer', locked: await payoutLockedNow(input.transfer_group) });
      return original(input);
    });
  };

  const newInvoice = async (buyer: Actor, createdAt = new Date(), seller: Actor = member()): Promise<InvoiceRecord> =>
    (
      await b.invoices.createForSale(
        {
          bid_id: randomUUID(),
          listing_id: randomUUID(),
          buyer_id: buyer.user_id,
          seller_id: seller.user_id,
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
  const buyer = member;
  const providerIdOf = async (paymentId: string): Promise<string> =>
    ((await ds.query('SELECT provider_intent_id FROM payment_intents WHERE id = $1', [paymentId])) as { provider_intent_id: string }[])[0].provider_intent_id;

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing'));
    b = wireBilling(ds);
    sandbox = b.provider as SandboxProvider;
    handler = b.handler;
    payments = b.payments;
    sweep = new PaymentWindowSweep(new UnpaidSalesRepository(ds), new EndUnpaidSale(new UnpaidSalesRepository(ds), sandbox), handler, sandbox, { PAYMENT_WINDOW_SWEEP_MS: 60_000 });
    watch('retrieve');
    watch('capture');
    watch('cancel');
    watchTransfers();
  });
  beforeEach(() => {
    calls = [];
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await ds?.destroy();
    await db?.drop();
  });

  it('a lapse asks the provider about the open payment before locking the invoice, then ends the sale', async () => {
    const who = buyer();
    const invoice = await newInvoice(who, new Date(Date.now() - 47 * HOUR));
    const created = await payments.createPayment(who, invoice.id);
    const providerIntentId = await providerIdOf(created.payment_intent_id);
    calls = [];

    expect(await sweep.sweep(new Date(Date.now() + 2 * HOUR))).toBe(1);
    expect((await b.invoices.findById(invoice.id))?.status).toBe('cancelled');
    expect((await sandbox.retrieve(providerIntentId))?.status).toBe('canceled');
    expect(calls.filter((call) => call.method === 'retrieve').length).toBeGreaterThan(0);
    expect(calls.filter((call) => call.method === 'cancel')).toHaveLength(1);
    expect(calls.filter((call) => call.locked)).toEqual([]);
  });

  it("the buyer's authorisation and the admin's capture reconcile without a provider call under a lock", async () => {
    const who = buyer();
    const seller = member();
    await onboard(b, seller);
    const invoice = await newInvoice(who, new Date(), seller);
    const created = await payments.createPayment(who, invoice.id);
    await payments.sandboxConfirm(who, created.payment_intent_id, card('4242424242424242', created.client_secret));
    expect((await b.invoices.findById(invoice.id))?.status).toBe('payment_authorized');
    // Release Funds (D22): captured into escrow, then one transfer to the seller's payout account.
    await payments.capture({ user_id: randomUUID(), role: 'admin' }, created.payment_intent_id, { amount_to_capture: null, reason: 'Transfer verified' });

    expect((await b.invoices.findById(invoice.id))?.status).toBe('paid');
    expect(calls.map((call) => call.method)).toEqual(expect.arrayContaining(['retrieve', 'capture', 'createTransfer']));
    expect(calls.filter((call) => call.locked)).toEqual([]);
  });

  it('an answer that went stale while another reconciliation applied a newer one is asked for again, not applied', async () => {
    const who = buyer();
    const invoice = await newInvoice(who);
    const created = await payments.createPayment(who, invoice.id);
    await payments.sandboxConfirm(who, created.payment_intent_id, card('4242424242424242', created.client_secret));
    const providerIntentId = await providerIdOf(created.payment_intent_id);
    const current = (await sandbox.retrieve(providerIntentId))!;
    // What the provider said before the card was authorised: a declined first card.
    const stale = { ...current, status: 'requires_payment_method' as const, authorized_at: null, last_error: 'Your card was declined.' };
    const retrieve = sandbox.retrieve as jest.MockedFunction<typeof sandbox.retrieve>;
    retrieve.mockImplementationOnce(async (id) => {
      // Meanwhile another reconciliation reads the provider's newer answer and applies it.
      await handler.sync(id);
      return stale;
    });
    calls = [];

    const synced = await handler.sync(providerIntentId);
    expect(synced).toMatchObject({ status: 'requires_capture', last_error: null });
    expect(synced?.authorized_at).not.toBeNull();
    expect((await b.invoices.findById(invoice.id))?.status).toBe('payment_authorized');
    // The stale answer, the other reconciliation's, and this one's second ask.
    expect(retrieve.mock.calls.slice(-3).map(([id]) => id)).toEqual([providerIntentId, providerIntentId, providerIntentId]);
    expect(calls.filter((call) => call.locked)).toEqual([]);
  });
});
