import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { isBalanced, LEDGER_ACCOUNTS, type LedgerAccount, type LedgerEntry, type LedgerKind } from '@market/domain';

/** One ledger transaction to write: its kind, what made it (written once per key), its lines and what it matches. */
export interface LedgerWrite {
  kind: LedgerKind;
  /** The kind and the id of what made it (`capture:<intent>`): a provider's retry or a second replica writes nothing. */
  key: string;
  invoice_id: string | null;
  payout_id?: string | null;
  /** The provider's balance transaction this must match in the reconciliation, and the provider's time of it. */
  provider_ref?: string | null;
  provider_at?: Date | null;
  entries: LedgerEntry[];
}

export interface LedgerTransactionRecord {
  id: string;
  kind: LedgerKind;
  occurred_at: Date;
  provider_ref: string | null;
  entries: { account: LedgerAccount; party_id: string | null; amount_cents: number }[];
}

/**
 * The only place that writes billing.ledger_transactions and ledger_entries (D22, ADR 0063). A transaction is written
 * inside the caller's database transaction, beside the state change that moved the money, so the two commit together;
 * the database refuses one whose lines do not sum to zero, and refuses any UPDATE or DELETE.
 */
@Injectable()
export class LedgerRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Writes one transaction unless its key was written before; true when written now. */
  async record(manager: EntityManager, write: LedgerWrite): Promise<boolean> {
    return (await this.recordMany(manager, [write])) === 1;
  }

  /**
   * Writes transactions in two statements, whatever their number (a sweep's batch), skipping any whose key was written
   * before; answers how many were written now.
   */
  async recordMany(manager: EntityManager, writes: LedgerWrite[]): Promise<number> {
    if (writes.length === 0) return 0;
    // Checked before the database's own check so a bug names its lines, not only its sum.
    for (const write of writes) if (!isBalanced(write.entries)) throw new Error(`Unbalanced ledger transaction ${write.key}: ${JSON.stringify(write.entries)}`);
    const ids = writes.map(() => randomUUID());
    const inserted: { id: string }[] = await manager.query(
      `INSERT INTO ledger_transactions (id, kind, invoice_id, payout_id, idempotency_key, provider_ref, provider_at)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::timestamptz[])
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
      [
        ids,
        writes.map((w) => w.kind),
        writes.map((w) => w.invoice_id),
        writes.map((w) => w.payout_id ?? null),
        writes.map((w) => w.key),
        writes.map((w) => w.provider_ref ?? null),
        writes.map((w) => w.provider_at ?? null),
      ],
    );
    const written = new Set(inserted.map((row) => row.id));
    const lines = writes.flatMap((write, i) => (written.has(ids[i]) ? write.entries.map((entry, line) => ({ id: ids[i], line: line + 1, ...entry })) : []));
    if (lines.length === 0) return 0;
    await manager.query(
      `INSERT INTO ledger_entries (transaction_id, line, account, party_id, amount_cents)
       SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::text[], $4::uuid[], $5::bigint[])`,
      [lines.map((l) => l.id), lines.map((l) => l.line), lines.map((l) => l.account), lines.map((l) => l.party_id), lines.map((l) => l.amount_cents)],
    );
    return written.size;
  }

  /** Each account's balance in cents (debits positive; sellers' payables summed), and how many transactions there are. */
  async balances(): Promise<{ balances: Record<LedgerAccount, number>; transactions: number; unbalanced: number }> {
    const rows: { account: LedgerAccount; balance: string }[] = await this.dataSource.query(
      'SELECT account, sum(amount_cents)::text AS balance FROM ledger_entries GROUP BY account',
    );
    const balances = Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, 0])) as Record<LedgerAccount, number>;
    for (const row of rows) balances[row.account] = Number(row.balance);
    // The trigger makes an unbalanced transaction impossible to commit; counting them says so rather than assuming it.
    const [{ transactions, unbalanced }]: { transactions: number; unbalanced: number }[] = await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM ledger_transactions) AS transactions,
         (SELECT count(*)::int FROM (SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_cents) <> 0) u) AS unbalanced`,
    );
    return { balances, transactions, unbalanced };
  }

  /** An invoice's transactions with their lines, oldest first. */
  async forInvoice(invoiceId: string): Promise<LedgerTransactionRecord[]> {
    return this.dataSource.query(
      `SELECT t.id, t.kind, t.occurred_at, t.provider_ref,
         json_agg(json_build_object('account', e.account, 'party_id', e.party_id, 'amount_cents', e.amount_cents) ORDER BY e.line) AS entries
       FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
       WHERE t.invoice_id = $1 GROUP BY t.id ORDER BY t.occurred_at, t.id`,
      [invoiceId],
    );
  }

  /** A seller's payable in cents (what was released to them and not yet transferred). */
  async sellerPayable(sellerId: string): Promise<number> {
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT coalesce(sum(amount_cents), 0)::text AS total FROM ledger_entries WHERE account = 'seller_payable' AND party_id = $1`,
      [sellerId],
    );
    return -Number(total);
  }
}
