import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import type { TestDatabase } from '@market/server-kit/testing';
import { card, member, onboard, openBillingDatabase, saleInvoice, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';
import { ledgerState } from '../testing/ledger-checks';
import type { InvoiceRecord } from '../invoices/invoices.repository';
import type { ProviderEvent } from '../payments/payment-provider';

const admin: Actor = { user_id: '00000000-0000-4000-8000-00000000a004', role: 'admin' };
const DAY = 24 * 3600_000;
const OPS = ['pay', 'start', 'receive', 'dispute', 'release', 'refund', 'resolve_release', 'resolve_refund', 'onboard', 'lapse', 'sweep', 'retry'] as const;
type Op = (typeof OPS)[number];
/** The usual path a sale takes, which a run may start part of the way along. */
const PATH: Op[] = ['pay', 'start', 'receive', 'onboard'];

interface Sale {
  buyer: Actor;
  seller: Actor;
  invoice: InvoiceRecord;
  intentId: string | null;
}

/**
 * Random lives of sales through the real billing code and the sandbox on PostgreSQL (D22): whatever order buyers,
 * sellers, admins, sweeps and the provider's retries act in, every ledger transaction balances, escrow holds exactly the
 * held invoices, sellers' payables exactly the payouts not yet sent, cards exactly the uncaptured holds, and the
 * ledger as a whole sums to zero: no cent is created or lost. Refusals (a step the state forbids) are expected; any
 * other error fails the run.
 */
describe('the ledger over random sequences of money movements', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let b: BillingUnderTest;

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing_ledger_property'));
    b = wireBilling(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const act = async (sale: Sale, op: Op): Promise<void> => {
    const id = sale.invoice.id;
    switch (op) {
      case 'pay': {
        const created = await b.payments.createPayment(sale.buyer, id);
        sale.intentId = created.payment_intent_id;
        await b.payments.sandboxConfirm(sale.buyer, created.payment_intent_id, card(created.client_secret));
        return;
      }
      case 'start':
        await b.transfer.markTransferStarted(sale.seller, id);
        return;
      case 'receive':
        await b.transfer.confirmReceived(sale.buyer, id);
        return;
      case 'dispute':
        await b.transfer.openDispute(sale.buyer, id, { reason: 'access_incomplete', message: 'Some accounts were not handed over yet.' });
        return;
      case 'release':
        if (sale.intentId) await b.payments.capture(admin, sale.intentId, {});
        return;
      case 'refund':
        if (sale.intentId) await b.payments.refund(admin, sale.intentId, {});
        return;
      case 'resolve_release':
      case 'resolve_refund':
        await b.transfer.resolveDispute(admin, id, { action: op === 'resolve_release' ? 'release' : 'refund', note: 'Decided on the evidence both sent.' });
        return;
      case 'onboard':
        await onboard(b, sale.seller);
        return;
      case 'lapse':
        // Every capture failed for a week: the hold is past its deadline and the hold sweep lapses it.
        if (sale.intentId) await ds.query(`UPDATE payment_intents SET authorized_at = now() - interval '8 days' WHERE id = $1 AND status = 'requires_capture'`, [sale.intentId]);
        await b.holdSweep.sweep();
        return;
      case 'sweep':
        b.clock.ahead += 4 * DAY;
        await b.escrowSweep.sweep();
        return;
      case 'retry': {
        // The provider delivers its notices again, in any order: every one is a duplicate and changes nothing.
        const events: { id: string; type: string; object_id: string; at: Date }[] = await ds.query('SELECT id, type, object_id, at FROM sandbox_events ORDER BY random() LIMIT 8');
        for (const e of events) {
          const notice = (e.type === 'account.updated' ? { id: e.id, type: e.type, account_id: e.object_id, at: e.at } : e.type.startsWith('transfer.') ? { id: e.id, type: e.type, transfer_id: e.object_id, at: e.at } : { id: e.id, type: e.type, intent_id: e.object_id, at: e.at }) as ProviderEvent;
          expect(await b.router.handle(notice)).toBe('duplicate');
        }
        return;
      }
    }
  };

  it('balances, holds exactly the held invoices and loses no cent', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Each sale, its price and how far along the usual path it starts (paid, transfer started, received, seller onboarded).
        fc.array(fc.record({ amount: fc.integer({ min: 1, max: 50_000 }), along: fc.nat(4) }), { minLength: 1, maxLength: 3 }),
        // Paying comes first more often, so most runs reach the steps that need held funds.
        fc.array(fc.record({ sale: fc.nat(2), op: fc.oneof({ arbitrary: fc.constant<Op>('pay'), weight: 3 }, { arbitrary: fc.constantFrom(...OPS), weight: 10 }) }), {
          minLength: 1,
          maxLength: 16,
        }),
        async (prices, steps) => {
          b.clock.ahead = 0;
          const sales: Sale[] = [];
          for (const { amount, along } of prices) {
            const buyer = member();
            const seller = member();
            const sale: Sale = { buyer, seller, invoice: await saleInvoice(b.invoices, { buyer, seller }, { amount, success_fee_percent: (amount % 7) + 0.25 }), intentId: null };
            sales.push(sale);
            for (const op of PATH.slice(0, along)) await act(sale, op);
          }
          for (const step of steps) {
            const sale = sales[step.sale % sales.length];
            await act(sale, step.op).catch((error: unknown) => {
              if (!(error instanceof AppError)) throw error;
            });
            const state = await ledgerState(ds);
            expect(state).toMatchObject({
              unbalanced: 0,
              total: 0,
              escrowMatchesHeldInvoices: true,
              payablesMatchUnsentPayouts: true,
              holdsMatchUncaptured: true,
              refundsOwedCents: 0,
              platformBalanceMatchesProvider: true,
            });
          }
        },
      ),
      { numRuns: 80 },
    );
    // The runs went through every kind of movement, not only refusals.
    const kinds: { kind: string; count: number }[] = await ds.query('SELECT kind, count(*)::int AS count FROM ledger_transactions GROUP BY kind');
    const seen = Object.fromEntries(kinds.map((k) => [k.kind, k.count]));
    for (const kind of ['authorization', 'capture', 'hold_released', 'refund_owed', 'refund_paid', 'release', 'payout']) expect(seen[kind] ?? 0).toBeGreaterThan(0);
  });
});
