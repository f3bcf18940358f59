import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { DEFAULT_SETTINGS, RPC, type Actor, type BuyNowSale, type RpcDefinition, type EventEnvelope, type EventPayloads } from '@market/contracts';
import { AppError, badRequest, KIT_MIGRATIONS, EventConsumers, openServiceDatabase, signEventsWith, type ServiceRpc, type SettingsClient } from '@market/server-kit';
import { createTestDatabase, isolatedEnv, testBusIdentity, type TestDatabase } from '@market/server-kit/testing';
import { InvoicesRepository } from './invoices.repository';
import { SaleEventsHandler } from './sale-events.handler';
import { InvoicesService, PAYMENT_SETUP_FAILED_MESSAGE } from './invoices.service';
import { OverdueSweep } from './overdue-sweep';
import { BILLING_DATABASE } from '../billing.database';

const DAY = 24 * 3600_000;

describe('invoices in the billing schema (D10)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let invoices: InvoicesRepository;
  let consumers: EventConsumers;
  let feePercent = 0;
  const settings = { get: async () => ({ ...DEFAULT_SETTINGS, success_fee: feePercent }) } as unknown as SettingsClient;
  let handler: SaleEventsHandler;

  const sale = (overrides: Partial<EventPayloads['bid.accepted']> = {}): EventPayloads['bid.accepted'] => ({
    bid_id: randomUUID(),
    listing_id: randomUUID(),
    listing_title: 'Recipe blog',
    website_url: 'https://recipes.example.com',
    seller_id: randomUUID(),
    buyer_id: randomUUID(),
    amount: 4500,
    kind: 'buy_now',
    sale: 'buy_now',
    accepted_at: new Date().toISOString(),
    ...overrides,
  });
  const envelope = (payload: EventPayloads['bid.accepted']): EventEnvelope<'bid.accepted'> => ({
    id: randomUUID(),
    name: 'bid.accepted',
    occurred_at: new Date().toISOString(),
    request_id: null,
    payload,
  });
  const deliver = (event: EventEnvelope<'bid.accepted'>) =>
    consumers.apply(event, (e, manager) => handler.onBidAccepted((e as EventEnvelope<'bid.accepted'>).payload, manager));
  const rowsFor = async (listingId: string) =>
    (await ds.query('SELECT invoice_number, status FROM invoices WHERE listing_id = $1', [listingId])) as { invoice_number: string; status: string }[];

  beforeAll(async () => {
    db = await createTestDatabase('billing');
    // billing-service's events are signed as it writes them (D25): with a test key of its own here.
    const bus = testBusIdentity(isolatedEnv(db.url), 'billing-service');
    ds = signEventsWith(bus, await openServiceDatabase({ url: db.url, schema: 'billing', entities: [], migrations: [...KIT_MIGRATIONS, ...BILLING_DATABASE.migrations], poolSize: 12 }));
    invoices = new InvoicesRepository(ds);
    // apply() needs only the database; no JetStream is involved here.
    consumers = new EventConsumers(ds, undefined as never, { stream: 'UNUSED', prefix: 'unused' }, 'billing-service', bus);
    handler = new SaleEventsHandler(consumers, invoices, settings, { name: 'sandbox' }, { PAYMENT_WINDOW_HOURS: 48 });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('makes exactly one invoice per sale: the same event twice, a second event for the sale, all at once', async () => {
    const facts = sale();
    const event = envelope(facts);
    const results = await Promise.all([deliver(event), deliver(event), deliver(envelope(facts)), deliver(envelope(facts)), deliver(event)]);
    // Two distinct event ids besides the original may apply, but they find the invoice already made.
    expect(results.filter(Boolean).length).toBe(3);
    const rows = await rowsFor(facts.listing_id);
    expect(rows).toEqual([{ invoice_number: expect.stringMatching(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`)), status: 'pending' }]);
    expect(await deliver(event)).toBe(false);
    expect(await rowsFor(facts.listing_id)).toEqual(rows);
    const issued = await ds.query(`SELECT count(*)::int AS n FROM outbox WHERE name = 'invoice.issued' AND payload->>'website_title' = 'Recipe blog' AND payload->>'buyer_id' = $1`, [facts.buyer_id]);
    expect(issued[0].n).toBe(1);
  });

  it('stores the sale, a seven-day due date and the fee in force at creation, in cents', async () => {
    feePercent = 2.5;
    const facts = sale({ amount: 4999, kind: 'offer', sale: 'bid_accepted' });
    const now = new Date('2026-03-01T10:00:00.000Z');
    await ds.transaction((manager) => handler.onBidAccepted(facts, manager, now));
    feePercent = 10;
    const invoice = await invoices.findByBid(facts.bid_id);
    expect(invoice).toMatchObject({
      listing_id: facts.listing_id,
      buyer_id: facts.buyer_id,
      seller_id: facts.seller_id,
      website_title: 'Recipe blog',
      website_url: 'https://recipes.example.com',
      sale_type: 'accepted_offer',
      amount_cents: 499_900,
      success_fee_percent: 2.5,
      fee_cents: 12_498,
      payout_cents: 487_402,
      status: 'pending',
      created_at: now,
      due_date: new Date('2026-03-08T10:00:00.000Z'),
      paid_at: null,
    });
    expect(invoice?.invoice_number).toMatch(/^INV-2026-\d{6}$/);
    // The buyer is told in the invoice's own transaction (D19).
    const issued = await ds.query(`SELECT payload FROM outbox WHERE name = 'invoice.issued' AND payload->>'invoice_id' = $1`, [invoice?.id]);
    expect(issued).toEqual([
      {
        payload: {
          invoice_id: invoice?.id,
          invoice_number: invoice?.invoice_number,
          buyer_id: facts.buyer_id,
          seller_id: facts.seller_id,
          website_title: 'Recipe blog',
          total_amount: 4999,
          due_date: '2026-03-08T10:00:00.000Z',
          // The sandbox runs the payments: the buyer's email says no real money moves (ADR 0033).
          test_mode: true,
          issued_at: '2026-03-01T10:00:00.000Z',
        },
      },
    ]);
    feePercent = 0;
  });

  it('numbers invoices from one sequence, rising', async () => {
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push((await invoices.createForSale({ ...toFacts(sale()) }, new Date())).invoice.invoice_number);
    const seqs = made.map((n) => Number(n.split('-')[2]));
    expect(seqs[1]).toBeGreaterThan(seqs[0]);
    expect(seqs[2]).toBeGreaterThan(seqs[1]);
  });

  it('marks paid only a pending invoice, once, and counts paid invoices', async () => {
    const before = await invoices.countPaid();
    const { invoice } = await invoices.createForSale(toFacts(sale()), new Date());
    const now = new Date();
    const [first, second] = await Promise.all([invoices.transition(invoice.id, 'marked_paid', now), invoices.transition(invoice.id, 'marked_paid', now)]);
    expect([first?.applied, second?.applied].sort()).toEqual([false, true]);
    expect((await invoices.findById(invoice.id))?.paid_at).toEqual(now);
    expect(await invoices.countPaid()).toBe(before + 1);
    expect(await invoices.transition(randomUUID(), 'marked_paid', now)).toBeNull();
  });

  it('sweeps unpaid invoices past their due date to overdue, and nothing else', async () => {
    const created = new Date(Date.now() - 8 * DAY);
    const make = async (status: string, createdAt = created) => {
      const { invoice } = await invoices.createForSale(toFacts(sale()), createdAt);
      await ds.query('UPDATE invoices SET status = $2 WHERE id = $1', [invoice.id, status]);
      return invoice.id;
    };
    const ids = {
      pending: await make('pending'),
      failed: await make('payment_failed'),
      canceled: await make('payment_canceled'),
      awaiting: await make('awaiting_payment'),
      authorized: await make('payment_authorized'),
      paid: await make('paid'),
      fresh: await make('pending', new Date()),
    };
    const sweep = new OverdueSweep(invoices, { INVOICE_SWEEP_MS: 60_000 });
    expect(await sweep.sweep()).toBeGreaterThanOrEqual(3);
    const status = async (id: string) => (await invoices.findById(id))?.status;
    expect(await status(ids.pending)).toBe('overdue');
    expect(await status(ids.failed)).toBe('overdue');
    expect(await status(ids.canceled)).toBe('overdue');
    expect(await status(ids.awaiting)).toBe('awaiting_payment');
    expect(await status(ids.authorized)).toBe('payment_authorized');
    expect(await status(ids.paid)).toBe('paid');
    expect(await status(ids.fresh)).toBe('pending');
    expect(await sweep.sweep()).toBe(0);
  });

  describe('buy now', () => {
    const buyer: Actor = { user_id: randomUUID(), role: 'regular' };
    const serviceWith = (call: (definition: RpcDefinition, data: unknown) => Promise<unknown>, waitMs = 3000, repository = invoices) =>
      new InvoicesService(repository, { call } as unknown as ServiceRpc, { BUY_NOW_INVOICE_WAIT_MS: waitMs }, { name: 'sandbox' });

    it('answers with the invoice the sale event makes, even when the event arrives while it waits', async () => {
      const facts = sale({ buyer_id: buyer.user_id });
      const answer = { bid_id: facts.bid_id, listing_id: facts.listing_id, amount: facts.amount } satisfies BuyNowSale;
      // The real repository, telling when the service first looked for the invoice and found none: the event is
      // delivered (twice) only then, so it arrives while the service waits.
      let missed!: () => void;
      const waiting = new Promise<void>((resolve) => (missed = resolve));
      const watched = Object.assign(Object.create(invoices) as InvoicesRepository, {
        findByBid: async (bidId: string) => {
          const found = await invoices.findByBid(bidId);
          if (!found) missed();
          return found;
        },
      });
      const delivered = waiting.then(() => Promise.all([deliver(envelope(facts)), deliver(envelope(facts))]));
      const service = serviceWith(async (definition) => {
        if (definition !== RPC.bidding.buyNow) throw new Error(`unexpected ${definition.subject}`);
        return answer;
      }, 3000, watched);
      const started = Date.now();
      const result = await service.buyNow(buyer, facts.listing_id);
      expect(Date.now() - started).toBeLessThan(2000);
      const invoice = await invoices.findByBid(facts.bid_id);
      expect(result).toEqual({
        message: 'Purchase successful! Complete your payment from your invoices.',
        redirect_to_payment: false,
        payment: null,
        fallback_payment_required: true,
        invoice: { id: invoice?.id, invoice_number: invoice?.invoice_number },
        payment_setup_failed: false,
      });
      await delivered;
      expect(await rowsFor(facts.listing_id)).toHaveLength(1);
    });

    it('says payment setup failed when no invoice appears in time; the sale stands', async () => {
      const service = serviceWith(async () => ({ bid_id: randomUUID(), listing_id: randomUUID(), amount: 100 }), 200);
      expect(await service.buyNow(buyer, randomUUID())).toEqual({
        message: PAYMENT_SETUP_FAILED_MESSAGE,
        redirect_to_payment: false,
        payment: null,
        fallback_payment_required: false,
        invoice: null,
        payment_setup_failed: true,
      });
    });

    it("passes the bidding service's refusal through unchanged", async () => {
      const service = serviceWith(async () => {
        throw badRequest('Purchases from $5,000 are completed through escrow: contact the seller');
      });
      const refused = await service.buyNow(buyer, randomUUID()).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ status: 400, detail: 'Purchases from $5,000 are completed through escrow: contact the seller' });
      await expect(service.buyNow(null, randomUUID())).rejects.toMatchObject({ status: 401 });
    });
  });
});

function toFacts(s: EventPayloads['bid.accepted']) {
  return {
    bid_id: s.bid_id,
    listing_id: s.listing_id,
    buyer_id: s.buyer_id,
    seller_id: s.seller_id,
    website_title: s.listing_title,
    website_url: s.website_url,
    sale_type: 'buy_now' as const,
    amount: s.amount,
    success_fee_percent: 0,
  };
}
