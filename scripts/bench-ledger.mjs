// npm run bench:ledger: the money side of D22 at volume, on billing's own code from the build against a fresh
// PostgreSQL database. (1) The daily reconciliation over 100,000 ledger transactions, each matched to the sandbox
// provider's balance transaction (target under 10 s). (2) The escrow sweep releasing 10,000 invoices whose inspection
// period ended: claim, ledger, one transfer each, paid (target under 30 s). Each phase checks its outcome exactly.
// Results go to docs/benchmarks.md ("Escrow, payouts and the ledger").
import pg from 'pg';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadBuilt } from './lib/build.mjs';
import { busEnv, busKeys } from './lib/bus-keys.mjs';

const LEDGER_ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 100_000);
const RELEASES = Number(process.env.BENCH_RELEASES ?? 10_000);
const SELLERS = 1_000;
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = `bench_ledger_${process.pid}`;

const { KIT_MIGRATIONS, busIdentity, openServiceDatabase, signEventsWith } = loadBuilt('libs/server-kit/dist/index.js');
const { BILLING_DATABASE } = loadBuilt('apps/billing-service/dist/billing.database.js');
const { withBillingDefaults } = loadBuilt('apps/billing-service/dist/billing.config.js');
const { SandboxProvider } = loadBuilt('apps/billing-service/dist/payments/sandbox.provider.js');
const { LedgerRepository } = loadBuilt('apps/billing-service/dist/ledger/ledger.repository.js');
const { ReconciliationService } = loadBuilt('apps/billing-service/dist/ledger/reconciliation.service.js');
const { PaymentEventsHandler } = loadBuilt('apps/billing-service/dist/payments/payment-events.handler.js');
const { PaymentIntentsRepository } = loadBuilt('apps/billing-service/dist/payments/payment-intents.repository.js');
const { EscrowService } = loadBuilt('apps/billing-service/dist/payments/escrow.service.js');
const { TransferRepository } = loadBuilt('apps/billing-service/dist/transfer/transfer.repository.js');
const { TransferSteps } = loadBuilt('apps/billing-service/dist/transfer/transfer-steps.js');
const { InvoicesRepository } = loadBuilt('apps/billing-service/dist/invoices/invoices.repository.js');
const { PayoutsRepository } = loadBuilt('apps/billing-service/dist/payouts/payouts.repository.js');
const { PayoutAccountsRepository } = loadBuilt('apps/billing-service/dist/payouts/payout-accounts.repository.js');
const { PayoutsService } = loadBuilt('apps/billing-service/dist/payouts/payouts.service.js');
const { PayoutSendsRepository } = loadBuilt('apps/billing-service/dist/payouts/payout-sends.repository.js');
const { RecordPayoutSends } = loadBuilt('apps/billing-service/dist/payouts/record-payout-sends.js');
const { ReleaseFunds } = loadBuilt('apps/billing-service/dist/payouts/release-funds.js');
const { PayoutSender } = loadBuilt('apps/billing-service/dist/payouts/payout-sender.js');
const { EscrowSweep } = loadBuilt('apps/billing-service/dist/payouts/escrow.sweep.js');
const { BillingClock } = loadBuilt('apps/billing-service/dist/clock/billing-clock.js');

const seconds = (ms) => (ms / 1000).toFixed(2);

/** 100,000 captures, each a ledger transaction (hold out, platform balance net of the fee, the fee) with its provider twin. */
async function seedLedger(client, rows) {
  await client.query(`
    WITH g AS (SELECT n, gen_random_uuid() AS id, 'txn_bench_' || n AS ref, 1000 + (n % 5000) * 100 AS amount,
                 now() - interval '2 days' + n * interval '1 millisecond' AS at FROM generate_series(1, $1) AS n),
    t AS (INSERT INTO billing.ledger_transactions (id, kind, idempotency_key, provider_ref, provider_at)
          SELECT id, 'capture', 'capture:bench-' || n, ref, at FROM g RETURNING id),
    e AS (INSERT INTO billing.ledger_entries (transaction_id, line, account, amount_cents)
          SELECT g.id, l.line, l.account, l.amount FROM g CROSS JOIN LATERAL (VALUES
            (1, 'card_holds', -g.amount), (2, 'platform_balance', g.amount - (g.amount * 29 + 500) / 1000 - 30), (3, 'provider_fees', (g.amount * 29 + 500) / 1000 + 30)
          ) AS l(line, account, amount) RETURNING 1)
    INSERT INTO billing.sandbox_balance_transactions (id, type, source_id, amount_cents, fee_cents, net_cents, created_at)
    SELECT ref, 'charge', 'ch_bench_' || n, amount, (amount * 29 + 500) / 1000 + 30, amount - (amount * 29 + 500) / 1000 - 30, at FROM g`, [rows]);
}

/**
 * Invoices whose funds are captured and whose transfer the buyer confirmed four days ago (past a 3-day inspection
 * period), each with its captured sandbox payment and ledger trail, sellers with payout accounts that take payouts.
 */
async function seedReleases(client, count) {
  await client.query(`
    INSERT INTO billing.sandbox_accounts (id, idempotency_key, user_id, details_submitted, payouts_enabled)
    SELECT 'acct_bench_' || n, 'acct-bench-' || n, ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, true, true FROM generate_series(1, $1) AS n`, [SELLERS]);
  await client.query(`
    INSERT INTO billing.payout_accounts (user_id, provider, provider_account_id, status)
    SELECT user_id, 'sandbox', id, 'enabled' FROM billing.sandbox_accounts WHERE id LIKE 'acct_bench_%'`);
  await client.query(`
    WITH g AS (SELECT n, gen_random_uuid() AS invoice, gen_random_uuid() AS intent, 'pi_bench_' || n AS pi, 'ch_rel_' || n AS charge,
                 1000 + (n % 900) AS dollars, now() - interval '4 days' AS received FROM generate_series(1, $1) AS n),
    i AS (INSERT INTO billing.invoices (id, invoice_number, bid_id, listing_id, buyer_id, seller_id, website_title, sale_type, amount_cents,
            success_fee_percent, fee_cents, payout_cents, status, due_date, created_at, transfer_started_at, transfer_received_at)
          SELECT invoice, 'INV-BENCH-' || n, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(),
            ('00000000-0000-4000-8000-' || lpad((1 + n % ${SELLERS})::text, 12, '0'))::uuid, 'Bench site ' || n, 'buy_now', dollars * 100,
            5, dollars * 5, dollars * 95, 'payment_authorized', now() + interval '3 days', received - interval '2 days', received - interval '1 day', received FROM g RETURNING 1),
    s AS (INSERT INTO billing.sandbox_intents (id, idempotency_key, status, amount_cents, currency, client_secret, charge_id, authorized_at, captured_at)
          SELECT pi, 'bench-' || n, 'succeeded', dollars * 100, 'usd', pi || '_secret', charge, received - interval '2 days', received - interval '1 day' FROM g RETURNING 1),
    p AS (INSERT INTO billing.payment_intents (id, provider, provider_intent_id, invoice_id, amount_cents, status, client_secret, idempotency_key,
            authorized_at, captured_at, succeeded_at, charge_id)
          SELECT intent, 'sandbox', pi, invoice, dollars * 100, 'succeeded', pi || '_secret', 'invoice-bench-' || n, received - interval '2 days',
            received - interval '1 day', received - interval '1 day', charge FROM g RETURNING 1),
    b AS (INSERT INTO billing.sandbox_balance_transactions (id, type, source_id, amount_cents, fee_cents, net_cents, created_at)
          SELECT 'txn_rel_' || n, 'charge', charge, dollars * 100, (dollars * 2900 + 500) / 1000 + 30, dollars * 100 - (dollars * 2900 + 500) / 1000 - 30,
            received - interval '1 day' FROM g RETURNING 1),
    t AS (INSERT INTO billing.ledger_transactions (id, kind, invoice_id, idempotency_key, provider_ref, provider_at)
          SELECT gen_random_uuid(), k.kind, invoice, k.kind || ':' || intent, CASE WHEN k.kind = 'capture' THEN 'txn_rel_' || n END,
            CASE WHEN k.kind = 'capture' THEN received - interval '1 day' END
          FROM g CROSS JOIN (VALUES ('authorization'), ('capture')) AS k(kind) RETURNING id, kind, invoice_id)
    INSERT INTO billing.ledger_entries (transaction_id, line, account, amount_cents)
    SELECT t.id, l.line, l.account, l.amount FROM t JOIN g ON g.invoice = t.invoice_id CROSS JOIN LATERAL (
      SELECT * FROM (VALUES
        ('authorization', 1, 'card_holds', g.dollars * 100), ('authorization', 2, 'escrow_held', -g.dollars * 100),
        ('capture', 1, 'card_holds', -g.dollars * 100), ('capture', 2, 'platform_balance', g.dollars * 100 - (g.dollars * 2900 + 500) / 1000 - 30),
        ('capture', 3, 'provider_fees', (g.dollars * 2900 + 500) / 1000 + 30)) AS v(kind, line, account, amount) WHERE v.kind = t.kind) AS l`, [count]);
}

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  const url = ADMIN_URL.replace(/\/[^/]*$/, `/${DB}`);
  // Billing's events are signed with its own bus key as the service signs them (D25, ADR 0065): a fresh key per run.
  const ds = signEventsWith(
    busIdentity('billing-service', busEnv(busKeys(), 'billing-service')),
    await openServiceDatabase({ url, schema: 'billing', entities: [], migrations: [...KIT_MIGRATIONS, ...BILLING_DATABASE.migrations], poolSize: 10 }),
  );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const report = { machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'cpu'}`, node: process.version };
  try {
    const config = withBillingDefaults({ PUBLIC_URL: 'https://market.example' });
    const provider = new SandboxProvider(ds, config.PUBLIC_URL);
    const ledger = new LedgerRepository(ds);
    const reconciliation = new ReconciliationService(ds, provider);

    console.log(`Seeding ${LEDGER_ROWS.toLocaleString('en-US')} ledger transactions and their provider twins...`);
    let t0 = performance.now();
    await seedLedger(client, LEDGER_ROWS);
    await client.query('ANALYZE');
    console.log(`  seeded in ${seconds(performance.now() - t0)} s`);
    t0 = performance.now();
    const run = await reconciliation.run(new Date(), 35);
    const reconcileMs = performance.now() - t0;
    if (run.provider_transactions !== LEDGER_ROWS || run.ledger_transactions !== LEDGER_ROWS || run.differences !== 0) {
      throw new Error(`Reconciliation compared the wrong things: ${JSON.stringify(run)}`);
    }
    report.reconcile = { transactions: LEDGER_ROWS, ms: Math.round(reconcileMs), differences: run.differences };
    console.log(`Reconciliation of ${LEDGER_ROWS.toLocaleString('en-US')} transactions: ${seconds(reconcileMs)} s (target < 10 s), ${run.differences} differences`);

    console.log(`Seeding ${RELEASES.toLocaleString('en-US')} invoices due for release...`);
    t0 = performance.now();
    await seedReleases(client, RELEASES);
    await client.query('ANALYZE');
    console.log(`  seeded in ${seconds(performance.now() - t0)} s`);
    const intents = new PaymentIntentsRepository(ds);
    const handler = new PaymentEventsHandler(ds, provider, ledger, config);
    // Wired as the app module wires them (billing-service/src/testing/billing-under-test.ts does the same).
    const transfers = new TransferRepository(ds);
    const escrow = new EscrowService(intents, handler, new TransferSteps(transfers), provider);
    const payoutRecords = new PayoutsRepository(ds);
    const sends = new PayoutSendsRepository(ds);
    const books = new RecordPayoutSends(sends, ledger);
    const accounts = new PayoutAccountsRepository(ds);
    const sender = new PayoutSender(sends, books, accounts, intents, provider);
    const payouts = new PayoutsService(payoutRecords, new ReleaseFunds(payoutRecords, ledger), accounts, intents, new InvoicesRepository(ds), escrow, sender, books, transfers, provider);
    const settings = { get: async () => ({ inspection_days: 3 }) };
    const sweep = new EscrowSweep(intents, escrow, payouts, sender, payoutRecords, settings, new BillingClock(config), config);
    t0 = performance.now();
    const result = await sweep.sweep();
    const sweepMs = performance.now() - t0;
    const [check] = (
      await client.query(`SELECT
        (SELECT count(*)::int FROM billing.payouts WHERE status = 'paid') AS paid,
        (SELECT count(*)::int FROM billing.sandbox_transfers) AS transfers,
        (SELECT count(*)::int FROM billing.invoices WHERE status = 'paid') AS invoices_paid,
        (SELECT count(*)::int FROM (SELECT transaction_id FROM billing.ledger_entries GROUP BY transaction_id HAVING sum(amount_cents) <> 0) u) AS unbalanced,
        (SELECT coalesce(sum(amount_cents), 0)::text FROM billing.ledger_entries WHERE account IN ('escrow_held', 'seller_payable')) AS owed,
        (SELECT coalesce(sum(p.net_cents), 0)::text FROM billing.payouts p) AS net,
        (SELECT coalesce(-sum(amount_cents), 0)::text FROM billing.sandbox_balance_transactions WHERE type = 'transfer') AS transferred`)
    ).rows;
    if (check.paid !== RELEASES || check.transfers !== RELEASES || check.invoices_paid !== RELEASES || check.unbalanced !== 0 || check.owed !== '0' || check.net !== check.transferred) {
      throw new Error(`The sweep's outcome is not exact: ${JSON.stringify({ result, check })}`);
    }
    report.releases = { invoices: RELEASES, ms: Math.round(sweepMs), ...result };
    console.log(`Escrow sweep releasing ${RELEASES.toLocaleString('en-US')} invoices: ${seconds(sweepMs)} s (target < 30 s); ${check.transfers} transfers, ledger balanced, escrow and payables at 0`);
    console.log(JSON.stringify(report));
  } finally {
    await client.end();
    await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
