import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import type { TestDatabase } from '@market/server-kit/testing';
import { heldSale, onboard, openBillingDatabase, wireBilling, type BillingUnderTest } from '../testing/billing-under-test';
import { ledgerState } from '../testing/ledger-checks';
import type { SandboxProvider } from '../payments/sandbox.provider';

const admin: Actor = { user_id: '00000000-0000-4000-8000-00000000a003', role: 'admin' };
const MINUTE = 60_000;

describe('the ledger reconciled with the provider (D22)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let b: BillingUnderTest;
  /** Runs the reconciliation as if it were a few minutes later, so this test's entries are settled. */
  const reconcile = () => b.reconciliation.run(new Date(Date.now() + 10 * MINUTE), 2);

  beforeAll(async () => {
    ({ db, ds } = await openBillingDatabase('billing_reconcile'));
    b = wireBilling(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('finds nothing to report after every money path, matching each provider balance transaction once', async () => {
    const paid = await heldSale(b);
    await onboard(b, paid.seller);
    await b.transfer.markTransferStarted(paid.seller, paid.invoice.id);
    await b.payments.capture(admin, paid.intentId, {});
    const refundedHold = await heldSale(b);
    await b.payments.refund(admin, refundedHold.intentId, {});
    const refundedCapture = await heldSale(b);
    await b.transfer.markTransferStarted(refundedCapture.seller, refundedCapture.invoice.id);
    await b.payments.refund(admin, refundedCapture.intentId, {});
    // A transfer the provider reversed (an admin in its dashboard): booked back, and matched.
    const reversed = await heldSale(b);
    await onboard(b, reversed.seller);
    await b.payments.capture(admin, reversed.intentId, {});
    const payout = await b.payoutRecords.findByInvoice(reversed.invoice.id);
    await (b.provider as SandboxProvider).connect.reverseTransfer(payout?.provider_transfer_id as string);
    expect(await b.payoutRecords.findByInvoice(reversed.invoice.id)).toMatchObject({ status: 'reversed' });

    const run = await reconcile();
    // Three captures, one refund, two transfers, one reversal: seven balance transactions, on both sides.
    expect(run).toMatchObject({ provider_transactions: 7, ledger_transactions: 7, differences: 0, unreconciled: 0 });
    expect(await ledgerState(ds)).toMatchObject({ unbalanced: 0, total: 0, escrowMatchesHeldInvoices: true, payablesMatchUnsentPayouts: true, holdsMatchUncaptured: true });
    // The reversed payout is owed to its seller again.
    expect(await b.ledger.sellerPayable(reversed.seller.user_id)).toBe(114_000);
  });

  it('reports a movement only the provider has, one only the ledger has, and amounts that differ; and closes them once matched', async () => {
    const at = new Date(Date.now() - MINUTE);
    // A refund someone made in the provider's dashboard: the platform never asked for it.
    await ds.query(`INSERT INTO sandbox_balance_transactions (id, type, source_id, amount_cents, fee_cents, net_cents, created_at) VALUES ('txn_sbx_outside', 'refund', 'ch_x', -5000, 0, -5000, $1)`, [at]);
    // The ledger says a transfer left that the provider has no trace of, and another whose amount the provider disagrees with.
    await ds.query(`INSERT INTO sandbox_balance_transactions (id, type, source_id, amount_cents, fee_cents, net_cents, created_at) VALUES ('txn_sbx_short', 'transfer', 'tr_x', -400, 0, -400, $1)`, [at]);
    const seller = randomUUID();
    await ds.transaction(async (manager) => {
      await b.ledger.record(manager, { kind: 'release', key: `release:test-${seller}`, invoice_id: null, entries: [
        { account: 'escrow_held', party_id: null, amount_cents: 900 },
        { account: 'seller_payable', party_id: seller, amount_cents: -900 },
      ] });
      await b.ledger.record(manager, { kind: 'payout', key: `payout:test-ghost-${seller}`, invoice_id: null, provider_ref: 'txn_sbx_ghost', provider_at: at, entries: [
        { account: 'seller_payable', party_id: seller, amount_cents: 400 },
        { account: 'platform_balance', party_id: null, amount_cents: -400 },
      ] });
      await b.ledger.record(manager, { kind: 'payout', key: `payout:test-short-${seller}`, invoice_id: null, provider_ref: 'txn_sbx_short', provider_at: at, entries: [
        { account: 'seller_payable', party_id: seller, amount_cents: 500 },
        { account: 'platform_balance', party_id: null, amount_cents: -500 },
      ] });
    });
    const run = await reconcile();
    expect(run).toMatchObject({ differences: 3, unreconciled: 3 });
    const open = await b.reconciliation.openDifferences(10);
    expect(open.map((d) => [d.provider_ref, d.kind, d.ledger_cents, d.provider_cents]).sort()).toEqual([
      ['txn_sbx_ghost', 'missing_at_provider', -400, null],
      ['txn_sbx_outside', 'missing_in_ledger', null, -5000],
      ['txn_sbx_short', 'amount_differs', -500, -400],
    ]);
    // Found again, not twice.
    expect(await reconcile()).toMatchObject({ differences: 3, unreconciled: 3 });
    expect(await b.reconciliation.state()).toMatchObject({ unreconciled: 3, last_reconciled_at: expect.any(Date) });

    // Support books the outside refund and the provider shows the ghost transfer: those two close, one stays open.
    await ds.transaction((manager) =>
      b.ledger.record(manager, { kind: 'refund_paid', key: 'refund_paid:outside', invoice_id: null, provider_ref: 'txn_sbx_outside', provider_at: at, entries: [
        { account: 'refunds', party_id: null, amount_cents: 5000 },
        { account: 'platform_balance', party_id: null, amount_cents: -5000 },
      ] }),
    );
    await ds.query(`INSERT INTO sandbox_balance_transactions (id, type, source_id, amount_cents, fee_cents, net_cents, created_at) VALUES ('txn_sbx_ghost', 'transfer', 'tr_y', -400, 0, -400, $1)`, [at]);
    expect(await reconcile()).toMatchObject({ differences: 1, unreconciled: 1 });
    expect((await b.reconciliation.openDifferences(10)).map((d) => d.provider_ref)).toEqual(['txn_sbx_short']);
  });

  it('reads the provider a page at a time without repeating or skipping an entry between pages', async () => {
    // 12,000 captures a millisecond apart: three pages of the sandbox's listing, whose timestamps keep microseconds.
    await ds.query(`
      WITH g AS (SELECT n, gen_random_uuid() AS id, 'txn_page_' || n AS ref, now() - interval '1 day' + n * interval '1 millisecond' AS at
                 FROM generate_series(1, 12000) AS n),
      t AS (INSERT INTO ledger_transactions (id, kind, idempotency_key, provider_ref, provider_at) SELECT id, 'capture', 'capture:page-' || n, ref, at FROM g RETURNING 1),
      e AS (INSERT INTO ledger_entries (transaction_id, line, account, amount_cents)
            SELECT g.id, l.line, l.account, l.amount FROM g CROSS JOIN (VALUES (1, 'card_holds', -1000), (2, 'platform_balance', 1000)) AS l(line, account, amount) RETURNING 1)
      INSERT INTO sandbox_balance_transactions (id, type, source_id, amount_cents, fee_cents, net_cents, created_at)
      SELECT ref, 'charge', 'ch_page_' || n, 1000, 0, 1000, at FROM g`);
    let seen = 0;
    const ids = new Set<string>();
    for await (const page of b.provider.connect.balanceTransactions(new Date(Date.now() - 2 * 24 * 3600_000), new Date())) {
      for (const txn of page) if (txn.id.startsWith('txn_page_')) ids.add(txn.id);
      seen += page.filter((txn) => txn.id.startsWith('txn_page_')).length;
    }
    expect([seen, ids.size]).toEqual([12_000, 12_000]);
    expect(await reconcile()).toMatchObject({ differences: 1, unreconciled: 1 });
  });

  it('refuses an unbalanced transaction and any change to a written one', async () => {
    await expect(
      ds.transaction(async (manager) => {
        await manager.query(`INSERT INTO ledger_transactions (id, kind, idempotency_key) VALUES ($1, 'capture', 'unbalanced-1')`, [randomUUID()]);
        const [{ id }] = await manager.query(`SELECT id FROM ledger_transactions WHERE idempotency_key = 'unbalanced-1'`);
        await manager.query(`INSERT INTO ledger_entries (transaction_id, line, account, amount_cents) VALUES ($1, 1, 'card_holds', -100), ($1, 2, 'platform_balance', 99)`, [id]);
      }),
    ).rejects.toThrow(/does not balance/);
    expect(await ds.query(`SELECT 1 FROM ledger_transactions WHERE idempotency_key = 'unbalanced-1'`)).toHaveLength(0);
    await expect(ds.query(`UPDATE ledger_entries SET amount_cents = amount_cents * 2`)).rejects.toThrow(/append-only/);
    await expect(ds.query(`DELETE FROM ledger_transactions`)).rejects.toThrow(/append-only/);
    await expect(ds.query(`TRUNCATE ledger_entries CASCADE`)).rejects.toThrow(/append-only/);
  });
});
