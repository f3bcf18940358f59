import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { CreateEventTables1763800000000, openServiceDatabase } from '@market/server-kit';
import { createTestDatabase, type TestDatabase, signingAs } from '@market/server-kit/testing';
import { CreateInvoices1763801200000 } from '../migrations/1763801200000-create-invoices';
import { CreatePayments1763801300000 } from '../migrations/1763801300000-create-payments';
import { AdminPaymentActs1764400000000 } from '../migrations/1764400000000-admin-payment-acts';
import { TransferAndDisputes1764520000000 } from '../migrations/1764520000000-transfer-and-disputes';
import { TransferProofs1764530100000 } from '../migrations/1764530100000-transfer-proofs';
import { PaymentMethods1764500000000 } from '../migrations/1764500000000-payment-methods';
import { PaymentWindow1764550000000 } from '../migrations/1764550000000-payment-window';
import { BillingCountsRepository } from './billing-counts.repository';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe('business figures of billing for the metrics (ADR 0048)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let counts: BillingCountsRepository;
  let sequence = 0;

  const invoice = async (cents: number, status: string) => {
    const id = randomUUID();
    sequence += 1;
    await ds.query(
      `INSERT INTO invoices (id, invoice_number, bid_id, listing_id, buyer_id, seller_id, website_title, sale_type, amount_cents,
         success_fee_percent, fee_cents, payout_cents, status, due_date, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'Site', 'buy_now', $7, 0, 0, $7, $8, now() + interval '7 days', now())`,
      [id, `INV-M-${sequence}`, randomUUID(), randomUUID(), randomUUID(), randomUUID(), cents, status],
    );
    return id;
  };
  /** A payment of `cents` on a new invoice, authorised `authorisedAgo` ms ago when given. */
  const payment = async (cents: number, status: string, authorisedAgo: number | null) => {
    const invoiceId = await invoice(cents, status === 'requires_capture' ? 'payment_authorized' : 'pending');
    await ds.query(
      `INSERT INTO payment_intents (id, provider, provider_intent_id, invoice_id, amount_cents, status, client_secret, idempotency_key, authorized_at)
       VALUES ($1, 'sandbox', $2, $3, $4, $5, 'secret', $2, $6)`,
      [randomUUID(), `pi_${randomUUID()}`, invoiceId, cents, status, authorisedAgo === null ? null : new Date(Date.now() - authorisedAgo)],
    );
  };

  beforeAll(async () => {
    db = await createTestDatabase('billing');
    ds = signingAs(await openServiceDatabase({
      url: db.url,
      schema: 'billing',
      entities: [],
      migrations: [CreateEventTables1763800000000, CreateInvoices1763801200000, CreatePayments1763801300000, AdminPaymentActs1764400000000, TransferAndDisputes1764520000000, TransferProofs1764530100000, PaymentMethods1764500000000, PaymentWindow1764550000000],
    }), 'billing-service');
    counts = new BillingCountsRepository(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('says no holds, no money and no deadline while nothing is held', async () => {
    expect(await counts.holds()).toEqual({ holds: 0, heldCents: 0, expiringWithin48h: 0, nextDeadlineSeconds: null });
  });

  it('sums the held money and counts the holds whose 7-day capture deadline is within 48 hours', async () => {
    await payment(100_000, 'requires_capture', 1 * DAY); // deadline in 6 days
    await payment(250_000, 'requires_capture', 5.5 * DAY); // deadline in 36 hours
    await payment(300_000, 'requires_capture', 8 * DAY); // deadline a day ago (the sweep releases it)
    await payment(900_000, 'succeeded', 6 * DAY); // captured: no longer held
    await payment(700_000, 'requires_payment_method', null); // not authorised yet

    const holds = await counts.holds();
    expect(holds).toMatchObject({ holds: 3, heldCents: 650_000, expiringWithin48h: 2 });
    // The nearest deadline passed a day ago: negative, about -24 h.
    expect(holds.nextDeadlineSeconds).toBeGreaterThan(-DAY / 1000 - 60);
    expect(holds.nextDeadlineSeconds).toBeLessThan(-DAY / 1000 + 60);
  });

  it('counts invoices by status', async () => {
    await invoice(10_000, 'paid');
    await invoice(10_000, 'paid');
    await invoice(10_000, 'overdue');
    const byStatus = Object.fromEntries((await counts.invoicesByStatus()).map((row) => [row.status, row.count]));
    expect(byStatus).toMatchObject({ paid: 2, overdue: 1, payment_authorized: 3, pending: 2 });
  });
});
