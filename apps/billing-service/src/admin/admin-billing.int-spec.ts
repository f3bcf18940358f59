import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RPC, type Actor, type RpcDefinition } from '@market/contracts';
import type { InvoiceState } from '@market/domain';
import { AppError, KIT_MIGRATIONS, openServiceDatabase, type ServiceRpc } from '@market/server-kit';
import { createTestDatabase, type TestDatabase, signingAs } from '@market/server-kit/testing';
import { AdminBillingRepository, invoiceStatusesOf } from './admin-billing.repository';
import { AdminBillingService } from './admin-billing.service';
import { BILLING_DATABASE } from '../billing.database';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const NOW = new Date('2026-06-15T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('admin billing figures in SQL (ADR 0021)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let repository: AdminBillingRepository;
  let sequence = 0;
  const [ann, bob, cat, dan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const profiles = [
    { id: ann, username: 'ann', name: 'Ann Archer', verified: false },
    { id: bob, username: 'bob', name: null, verified: true },
    { id: cat, username: 'cat', name: 'Cat Cole', verified: false },
  ];
  const rpc = {
    call: async (definition: RpcDefinition, data: { user_ids: string[] }) => {
      expect(definition).toBe(RPC.auth.publicProfiles);
      return { profiles: profiles.filter((p) => data.user_ids.includes(p.id)) };
    },
  } as unknown as ServiceRpc;
  const admin: Actor = { user_id: randomUUID(), role: 'admin' };

  /** An invoice as stored, created `age` before NOW; paid invoices carry their paid_at. */
  const invoice = async (dollars: number, status: InvoiceState, age: number, extra: { buyer?: string; paid_at?: Date } = {}) => {
    const id = randomUUID();
    sequence += 1;
    await ds.query(
      `INSERT INTO invoices (id, invoice_number, bid_id, listing_id, buyer_id, seller_id, website_title, sale_type, amount_cents,
         success_fee_percent, fee_cents, payout_cents, status, due_date, created_at, paid_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'buy_now', $8, 0, 0, $8, $9, $10, $11, $12)`,
      [id, `INV-2026-${String(sequence).padStart(6, '0')}`, randomUUID(), randomUUID(), extra.buyer ?? cat, dan, `Site ${sequence}`, dollars * 100, status,
        new Date(ago(age).getTime() + 7 * DAY), ago(age), extra.paid_at ?? null],
    );
    return id;
  };
  const intent = (invoiceId: string, status: string, createdAt: Date) =>
    ds.query(
      `INSERT INTO payment_intents (id, provider, provider_intent_id, invoice_id, amount_cents, status, client_secret, idempotency_key, created_at)
       VALUES ($1, 'sandbox', $2, $3, 100, $4, 'secret', $2, $5)`,
      [randomUUID(), `pi_${randomUUID()}`, invoiceId, status, createdAt],
    );

  beforeAll(async () => {
    db = await createTestDatabase('billing');
    ds = signingAs(await openServiceDatabase({
      url: db.url,
      schema: 'billing',
      entities: [],
      migrations: [...KIT_MIGRATIONS, ...BILLING_DATABASE.migrations],
      poolSize: 4,
    }), 'billing-service');
    repository = new AdminBillingRepository(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('answers zeros, not NaN, without invoices, with 30 empty days ending today (UTC)', async () => {
    const figures = await repository.analytics(NOW);
    expect(figures.overview).toEqual({ total_invoices: 0, paid_invoices: 0, pending_invoices: 0, overdue_invoices: 0 });
    expect(figures.financial).toEqual({ total_revenue: 0, pending_revenue: 0, overdue_revenue: 0, avg_invoice_value: 0 });
    expect(figures.performance).toEqual({ payment_rate: 0, overdue_rate: 0 });
    expect(figures.aging_analysis['60+_days']).toEqual({ count: 0, amount: 0 });
    expect(figures.top_customers).toEqual([]);
    expect(figures.revenue_over_time).toHaveLength(30);
    expect(figures.revenue_over_time[0]).toEqual({ date: '2026-05-17', revenue: 0 });
    expect(figures.revenue_over_time[29]).toEqual({ date: '2026-06-15', revenue: 0 });
  });

  it('computes counts, money, one-decimal rates, aging bucket edges, top customers and daily revenue', async () => {
    // Paid: the first instant of the 30-day window counts, the last instant before it does not.
    await invoice(1000, 'paid', 40 * DAY, { buyer: ann, paid_at: new Date('2026-05-17T00:00:00.000Z') });
    await invoice(2500, 'paid', 5 * DAY, { buyer: bob, paid_at: NOW });
    await invoice(499, 'paid', 100 * DAY, { buyer: ann, paid_at: new Date('2026-05-16T23:59:59.999Z') });
    // Unpaid, by whole days since creation: 7 is the last day of 0-7, 30 of 8-30, 60 of 31-60.
    await invoice(300, 'pending', 8 * DAY - HOUR);
    await invoice(700, 'awaiting_payment', 8 * DAY);
    await invoice(1200, 'overdue', 31 * DAY - HOUR);
    await invoice(800, 'payment_authorized', 31 * DAY);
    await invoice(150, 'payment_failed', 61 * DAY - HOUR);
    await invoice(2000, 'overdue', 61 * DAY);
    await invoice(50, 'payment_canceled', HOUR);
    await invoice(1, 'pending', 3 * DAY);

    const figures = await repository.analytics(NOW);
    expect(figures.overview).toEqual({ total_invoices: 11, paid_invoices: 3, pending_invoices: 6, overdue_invoices: 2 });
    // 9,200 / 11 = 836.3636…: rounded to the cent.
    expect(figures.financial).toEqual({ total_revenue: 3999, pending_revenue: 2001, overdue_revenue: 3200, avg_invoice_value: 836.36 });
    // 3/11 = 27.27…%, 2/11 = 18.18…%.
    expect(figures.performance).toEqual({ payment_rate: 27.3, overdue_rate: 18.2 });
    expect(figures.aging_analysis).toEqual({
      '0-7_days': { count: 3, amount: 351 },
      '8-30_days': { count: 2, amount: 1900 },
      '31-60_days': { count: 2, amount: 950 },
      '60+_days': { count: 1, amount: 2000 },
    });
    expect(figures.top_customers).toEqual([
      { customer_id: bob, revenue: 2500 },
      { customer_id: ann, revenue: 1499 },
    ]);
    const days = figures.revenue_over_time.filter((day) => day.revenue > 0);
    expect(days).toEqual([
      { date: '2026-05-17', revenue: 1000 },
      { date: '2026-06-15', revenue: 2500 },
    ]);

    const named = await new AdminBillingService(repository, rpc).analytics(admin, NOW);
    expect(named.top_customers).toEqual([
      { customer_id: bob, customer_name: 'bob', revenue: 2500 },
      { customer_id: ann, customer_name: 'Ann Archer', revenue: 1499 },
    ]);
  });

  it('lists transactions newest first by status group, with the latest payment status', async () => {
    const failed = await invoice(75, 'payment_failed', 0);
    await intent(failed, 'canceled', ago(HOUR));
    await intent(failed, 'failed', ago(HOUR / 2));

    const all = await repository.transactions(null, 1000);
    expect(all).toHaveLength(12);
    expect(all[0]).toMatchObject({ id: failed, amount_cents: 7500, status: 'payment_failed', payment_status: 'failed', website_title: 'Site 12' });
    const times = all.map((row) => new Date(row.created_at).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.filter((row) => row.id !== failed).every((row) => row.payment_status === null)).toBe(true);
    expect(await repository.transactions(null, 2)).toHaveLength(2);

    expect(invoiceStatusesOf('completed')).toEqual(['paid']);
    expect(invoiceStatusesOf('failed')).toEqual(['payment_failed', 'payment_canceled', 'cancelled']);
    expect(invoiceStatusesOf('pending')).toEqual(['pending', 'overdue', 'awaiting_payment', 'payment_authorized', 'disputed']);
    const statuses = async (group: 'completed' | 'pending' | 'failed') =>
      (await repository.transactions(invoiceStatusesOf(group), 1000)).map((row) => row.status).sort();
    expect(await statuses('completed')).toEqual(['paid', 'paid', 'paid']);
    expect(await statuses('failed')).toEqual(['payment_canceled', 'payment_failed', 'payment_failed']);
    expect(await statuses('pending')).toEqual(['awaiting_payment', 'overdue', 'overdue', 'payment_authorized', 'pending', 'pending']);

    const service = new AdminBillingService(repository, rpc);
    const [row] = (await service.transactions(admin, { status: 'failed' })).transactions;
    expect(row).toMatchObject({ id: failed, amount: 75, status: 'failed', invoice_status: 'payment_failed', payment_status: 'failed', listing_title: 'Site 12' });
    expect(row.buyer).toEqual({ id: cat, username: 'cat' });
    expect(row.seller).toEqual({ id: dan, username: 'Unknown user' });
  });

  it('refuses anyone but a real admin', async () => {
    const service = new AdminBillingService(repository, rpc);
    const impersonating = { ...admin, impersonator_id: randomUUID() } as Actor;
    const user: Actor = { ...admin, role: 'regular' };
    for (const actor of [impersonating, user]) {
      await expect(service.analytics(actor)).rejects.toBeInstanceOf(AppError);
      await expect(service.transactions(actor, { status: 'all' })).rejects.toMatchObject({ status: 403 });
    }
    await expect(service.analytics(null)).rejects.toMatchObject({ status: 401 });
  });

  it('names only the five buyers with the most paid revenue, ties by id', async () => {
    const buyers = Array.from({ length: 6 }, () => randomUUID());
    for (const [i, buyer] of buyers.entries()) await invoice(3000 + (i < 2 ? 0 : i * 100), 'paid', DAY, { buyer, paid_at: ago(HOUR) });
    const { top_customers } = await repository.analytics(NOW);
    const tied = [buyers[0], buyers[1]].sort();
    expect(top_customers).toEqual([
      { customer_id: buyers[5], revenue: 3500 },
      { customer_id: buyers[4], revenue: 3400 },
      { customer_id: buyers[3], revenue: 3300 },
      { customer_id: buyers[2], revenue: 3200 },
      { customer_id: tied[0], revenue: 3000 },
    ]);
  });
});
