import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider';

/** The balance transaction types the ledger records: everything else (the platform's bank payouts, adjustments) is not its. */
export const RECONCILED_TYPES = new Set(['charge', 'payment', 'refund', 'payment_refund', 'transfer', 'transfer_refund', 'transfer_cancel', 'transfer_failure', 'refund_failure']);
/** Recent entries may still be on their way to one side: compared only once this old. */
const SETTLE_MS = 5 * 60_000;
const DAY_MS = 24 * 3600_000;

export interface ReconciliationRun {
  window_from: Date;
  window_to: Date;
  provider_transactions: number;
  ledger_transactions: number;
  /** Differences found by this run. */
  differences: number;
  /** Differences open after it (found now or before, in any window). */
  unreconciled: number;
}

interface Difference {
  ref: string;
  kind: 'missing_in_ledger' | 'missing_at_provider' | 'amount_differs';
  ledger: number | null;
  provider: number | null;
  at: Date;
}

/**
 * The daily reconciliation (D22, ADR 0063): the ledger's movements of the platform's balance, each tied to the
 * provider's balance transaction it must match, are compared with the provider's own list over a window of days.
 * A transaction on one side only, or with another net amount, is recorded as a difference (open until a later run
 * finds it matched); their count is a metric with an alert. Compared in memory by reference: a window of 100,000
 * transactions is two maps of that size.
 */
@Injectable()
export class ReconciliationService {
  private readonly logger = new Logger('Reconciliation');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /** Compares the window of `windowDays` days ending a few minutes before `now`, and records what differs. */
  async run(now: Date, windowDays: number): Promise<ReconciliationRun> {
    const started = new Date();
    // Whole seconds at both ends: Stripe's times are whole seconds, so both sides see exactly the same window.
    const to = new Date(Math.floor((now.getTime() - SETTLE_MS) / 1000) * 1000);
    const from = new Date(to.getTime() - windowDays * DAY_MS);
    const ledger = await this.ledgerSide(from, to);
    const ledgerCount = ledger.size;
    const differences: Difference[] = [];
    let providerCount = 0;
    for await (const page of this.provider.connect.balanceTransactions(from, to)) {
      for (const txn of page) {
        if (!RECONCILED_TYPES.has(txn.type)) continue;
        providerCount += 1;
        const mine = ledger.get(txn.id);
        ledger.delete(txn.id);
        if (!mine) differences.push({ ref: txn.id, kind: 'missing_in_ledger', ledger: null, provider: txn.net_cents, at: new Date(txn.created_at) });
        else if (mine.cents !== txn.net_cents) differences.push({ ref: txn.id, kind: 'amount_differs', ledger: mine.cents, provider: txn.net_cents, at: new Date(txn.created_at) });
      }
    }
    for (const [ref, mine] of ledger) differences.push({ ref, kind: 'missing_at_provider', ledger: mine.cents, provider: null, at: mine.at });
    const unreconciled = await this.record(differences, from, to, { started, providerCount, ledgerCount });
    if (differences.length > 0) this.logger.warn(`Reconciliation ${from.toISOString()}..${to.toISOString()}: ${differences.length} differences with the provider`);
    return { window_from: from, window_to: to, provider_transactions: providerCount, ledger_transactions: ledgerCount, differences: differences.length, unreconciled };
  }

  /** How many differences are open, and when a run last finished. */
  async state(): Promise<{ unreconciled: number; last_reconciled_at: Date | null }> {
    const [row]: { unreconciled: number; last: Date | null }[] = await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM ledger_differences WHERE resolved_at IS NULL) AS unreconciled,
         (SELECT max(finished_at) FROM ledger_reconciliations) AS last`,
    );
    return { unreconciled: row.unreconciled, last_reconciled_at: row.last };
  }

  /** The open differences, newest first. */
  openDifferences(limit: number): Promise<{ id: string; provider_ref: string; kind: Difference['kind']; ledger_cents: number | null; provider_cents: number | null; day: string; found_at: Date }[]> {
    return this.dataSource.query(
      `SELECT id, provider_ref, kind, ledger_cents::float8 AS ledger_cents, provider_cents::float8 AS provider_cents, to_char(day, 'YYYY-MM-DD') AS day, found_at
       FROM ledger_differences WHERE resolved_at IS NULL ORDER BY found_at DESC, id LIMIT $1`,
      [limit],
    );
  }

  /**
   * The ledger's side of the window: each transaction's net movement of the platform's balance, by the provider's
   * reference (or `ledger:<id>` for one that names none, which the provider can never match).
   */
  private async ledgerSide(from: Date, to: Date): Promise<Map<string, { cents: number; at: Date }>> {
    const rows: { ref: string; cents: string; at: Date }[] = await this.dataSource.query(
      `SELECT COALESCE(t.provider_ref, 'ledger:' || t.id::text) AS ref, sum(e.amount_cents)::text AS cents, COALESCE(t.provider_at, t.occurred_at) AS at
       FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id AND e.account = 'platform_balance'
       WHERE COALESCE(t.provider_at, t.occurred_at) >= $1 AND COALESCE(t.provider_at, t.occurred_at) < $2
       GROUP BY t.id`,
      [from, to],
    );
    return new Map(rows.map((row) => [row.ref, { cents: Number(row.cents), at: new Date(row.at) }]));
  }

  /** Keeps this run's differences open, closes those of the window no longer found, and records the run. */
  private async record(differences: Difference[], from: Date, to: Date, run: { started: Date; providerCount: number; ledgerCount: number }): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO ledger_differences (id, provider_ref, kind, ledger_cents, provider_cents, at, day)
         SELECT gen_random_uuid(), ref, kind, ledger, provider, at, (at AT TIME ZONE 'UTC')::date
         FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::timestamptz[]) AS d(ref, kind, ledger, provider, at)
         ON CONFLICT (provider_ref, kind) WHERE resolved_at IS NULL DO UPDATE SET ledger_cents = EXCLUDED.ledger_cents, provider_cents = EXCLUDED.provider_cents`,
        [differences.map((d) => d.ref), differences.map((d) => d.kind), differences.map((d) => d.ledger), differences.map((d) => d.provider), differences.map((d) => d.at)],
      );
      await manager.query(
        `UPDATE ledger_differences SET resolved_at = now()
         WHERE resolved_at IS NULL AND at >= $1 AND at < $2
           AND (provider_ref, kind) NOT IN (SELECT * FROM unnest($3::text[], $4::text[]))`,
        [from, to, differences.map((d) => d.ref), differences.map((d) => d.kind)],
      );
      await manager.query(
        `INSERT INTO ledger_reconciliations (id, window_from, window_to, provider_transactions, ledger_transactions, differences, started_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [randomUUID(), from, to, run.providerCount, run.ledgerCount, differences.length, run.started],
      );
      const [{ count }]: { count: number }[] = await manager.query('SELECT count(*)::int AS count FROM ledger_differences WHERE resolved_at IS NULL');
      return count;
    });
  }
}
