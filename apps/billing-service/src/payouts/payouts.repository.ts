import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PayoutStatus } from '@market/domain';
import { INVOICE_COLUMNS, type InvoiceRecord } from '../invoices/invoices.repository';

/** A payout row as stored (billing.payouts): one per invoice, in cents. */
export interface PayoutRecord {
  id: string;
  invoice_id: string;
  seller_id: string;
  gross_cents: number;
  fee_cents: number;
  net_cents: number;
  status: PayoutStatus;
  released_by: string;
  idempotency_key: string;
  source_transaction: string | null;
  provider_transfer_id: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  paid_at: Date | null;
}

export const PAYOUT_COLUMNS = `id, invoice_id, seller_id, gross_cents::float8 AS gross_cents, fee_cents::float8 AS fee_cents, net_cents::float8 AS net_cents,
  status, released_by, idempotency_key, source_transaction, provider_transfer_id, attempts, last_error, created_at, paid_at`;

/** Who released the funds: an admin (their id), a dispute's decision (its admin), or the inspection period ending. */
export type ReleasedBy = { by: 'admin'; admin_id: string } | { by: 'dispute'; admin_id: string } | { by: 'inspection' };

export type ReleaseClaim =
  | { outcome: 'claimed' | 'already'; payout: PayoutRecord; invoice: InvoiceRecord }
  | { outcome: 'refused'; why: string; invoice: InvoiceRecord | null };

/** Reads and writes of billing.payouts (D22); ReleaseFunds decides a release, PayoutSendsRepository records sends. */
@Injectable()
export class PayoutsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findByInvoice(invoiceId: string): Promise<PayoutRecord | null> {
    const [row]: PayoutRecord[] = await this.dataSource.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE invoice_id = $1`, [invoiceId]);
    return row ?? null;
  }

  async findByTransfer(transferId: string): Promise<PayoutRecord | null> {
    const [row]: PayoutRecord[] = await this.dataSource.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE provider_transfer_id = $1`, [transferId]);
    return row ?? null;
  }

  /** Each invoice's payout, for the admin Payments tab and sellers' invoices. */
  async forInvoices(invoiceIds: string[]): Promise<Map<string, PayoutRecord>> {
    if (invoiceIds.length === 0) return new Map();
    const rows: PayoutRecord[] = await this.dataSource.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE invoice_id = ANY($1::uuid[])`, [[...new Set(invoiceIds)]]);
    return new Map(rows.map((row) => [row.invoice_id, row]));
  }

  /** A transaction of this repository's database. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The invoices, locked in id order (so two batches never deadlock). */
  lockInvoices(ids: string[], manager: EntityManager): Promise<InvoiceRecord[]> {
    return manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [[...ids].sort()]);
  }

  /** The payouts of these invoices, by invoice. */
  async payoutsOf(ids: string[], manager: EntityManager): Promise<Map<string, PayoutRecord>> {
    const rows: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE invoice_id = ANY($1::uuid[])`, [ids]);
    return new Map(rows.map((p) => [p.invoice_id, p]));
  }

  /** Which of these invoices have an open dispute. */
  async openDisputes(ids: string[], manager: EntityManager): Promise<Set<string>> {
    const rows: { invoice_id: string }[] = await manager.query('SELECT invoice_id FROM disputes WHERE invoice_id = ANY($1::uuid[]) AND closed_at IS NULL', [ids]);
    return new Set(rows.map((d) => d.invoice_id));
  }

  /** The captured, unrefunded charge of each of these invoices that has one. */
  async capturedCharges(ids: string[], manager: EntityManager): Promise<Map<string, string | null>> {
    const rows: { invoice_id: string; charge_id: string | null }[] = await manager.query(
      `SELECT invoice_id, charge_id FROM payment_intents WHERE invoice_id = ANY($1::uuid[]) AND status = 'succeeded' AND refunded_at IS NULL`,
      [ids],
    );
    return new Map(rows.map((c) => [c.invoice_id, c.charge_id]));
  }

  /** Inserts payouts (one statement). */
  async insertPayouts(payouts: PayoutRecord[], manager: EntityManager): Promise<void> {
    const col = <K extends keyof PayoutRecord>(key: K) => payouts.map((p) => p[key]);
    await manager.query(
      `INSERT INTO payouts (id, invoice_id, seller_id, gross_cents, fee_cents, net_cents, status, released_by, idempotency_key, source_transaction, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])`,
      [col('id'), col('invoice_id'), col('seller_id'), col('gross_cents'), col('fee_cents'), col('net_cents'), col('status'), col('released_by'), col('idempotency_key'), col('source_transaction'), col('created_at')],
    );
  }

  /** Held invoices (disputed or not) become payment_authorized with the release mark (funds_released); nothing else changes. */
  async markReleasing(ids: string[], at: Date, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE invoices SET status = 'payment_authorized', release_started_at = COALESCE(release_started_at, $2), updated_at = now() WHERE id = ANY($1::uuid[])`,
      [ids, at],
    );
  }

  /** The seller's payout account status, or null without one. */
  async accountStatusOf(sellerId: string, manager: EntityManager): Promise<string | null> {
    const [account]: { status: string }[] = await manager.query('SELECT status FROM payout_accounts WHERE user_id = $1', [sellerId]);
    return account?.status ?? null;
  }

  /** Marks that the seller was told their payout waits for their account. */
  async markWaitingTold(payoutId: string, at: Date, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE payouts SET waiting_told_at = $2 WHERE id = $1', [payoutId, at]);
  }

  /**
   * Held invoices whose funds go out by themselves now (D22): the transfer verified or received `inspectionDays` ago,
   * captured or not, with no open dispute and no payout yet, oldest first.
   */
  async dueForRelease(now: Date, inspectionDays: number, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT i.id FROM invoices i
       WHERE i.status = 'payment_authorized' AND (i.transfer_verified_at IS NOT NULL OR i.transfer_received_at IS NOT NULL)
         AND LEAST(i.transfer_verified_at, i.transfer_received_at) <= $1::timestamptz - make_interval(days => $2)
         AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.invoice_id = i.id)
         AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.invoice_id = i.id AND d.closed_at IS NULL)
       ORDER BY LEAST(i.transfer_verified_at, i.transfer_received_at) LIMIT $3`,
      [now, inspectionDays, limit],
    );
    return rows.map((row) => row.id);
  }

  /** A seller's sales whose money is held or was released, newest first (their Payouts section). */
  forSeller(sellerId: string, limit: number): Promise<(PayoutRecord & { invoice_number: string; website_title: string; invoice_created_at: Date; held: boolean })[]> {
    return this.dataSource.query(
      `SELECT p.id, i.id AS invoice_id, i.seller_id, COALESCE(p.gross_cents, i.amount_cents)::float8 AS gross_cents,
         COALESCE(p.fee_cents, i.fee_cents)::float8 AS fee_cents, COALESCE(p.net_cents, i.payout_cents)::float8 AS net_cents,
         p.status, p.created_at, p.paid_at, i.invoice_number, i.website_title, i.created_at AS invoice_created_at, p.id IS NULL AS held
       FROM invoices i LEFT JOIN payouts p ON p.invoice_id = i.id
       WHERE i.seller_id = $1 AND (p.id IS NOT NULL OR i.status IN ('payment_authorized', 'disputed'))
       ORDER BY COALESCE(p.created_at, i.created_at) DESC, i.id LIMIT $2`,
      [sellerId, limit],
    );
  }
}
