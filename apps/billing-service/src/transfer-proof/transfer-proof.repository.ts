import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** A buyer's transfer token for an invoice, the pacing of its checks, and the invoice's verification. */
export interface TransferProofRecord {
  invoice_id: string;
  buyer_id: string;
  token: string;
  last_checked_at: Date | null;
  window_started_at: Date | null;
  checks_in_window: number;
  transfer_verified_at: Date | null;
  transfer_verified_method: 'dns' | 'file' | null;
}

const COLUMNS = `p.invoice_id, p.buyer_id, p.token, p.last_checked_at, p.window_started_at, p.checks_in_window,
  i.transfer_verified_at, i.transfer_verified_method`;

/** The only place that reads and writes billing.transfer_proofs and the invoices' transfer verification (ADR 0040). */
@Injectable()
export class TransferProofRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The invoice's proof for its buyer, made with `token` when there is none (a token is bound to invoice and buyer). */
  async tokenFor(invoiceId: string, buyerId: string, token: string): Promise<TransferProofRecord> {
    await this.dataSource.query(
      `INSERT INTO transfer_proofs (invoice_id, buyer_id, token) VALUES ($1, $2, $3)
       ON CONFLICT (invoice_id) DO UPDATE SET buyer_id = EXCLUDED.buyer_id, token = EXCLUDED.token
         WHERE transfer_proofs.buyer_id <> EXCLUDED.buyer_id`,
      [invoiceId, buyerId, token],
    );
    return (await this.find(invoiceId, this.dataSource.manager)) as TransferProofRecord;
  }

  /** Runs fn in one transaction. */
  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /** Locks the invoice's proof row for the pacing decision (inside the caller's transaction). */
  async lock(invoiceId: string, manager: EntityManager): Promise<TransferProofRecord | null> {
    await manager.query('SELECT 1 FROM transfer_proofs WHERE invoice_id = $1 FOR UPDATE', [invoiceId]);
    return this.find(invoiceId, manager);
  }

  /** Counts a check at `now`: a new hour's window starts when the last one is over. */
  async countCheck(invoiceId: string, now: Date, manager: EntityManager): Promise<TransferProofRecord> {
    await manager.query(
      `UPDATE transfer_proofs SET last_checked_at = $2,
         window_started_at = CASE WHEN window_started_at IS NULL OR window_started_at <= $2::timestamptz - interval '1 hour' THEN $2 ELSE window_started_at END,
         checks_in_window = CASE WHEN window_started_at IS NULL OR window_started_at <= $2::timestamptz - interval '1 hour' THEN 1 ELSE checks_in_window + 1 END
       WHERE invoice_id = $1`,
      [invoiceId, now],
    );
    return (await this.find(invoiceId, manager)) as TransferProofRecord;
  }

  /**
   * Marks the transfer verified, once (a later check keeps the first time), while the funds are still held; null when
   * they no longer are (captured, refunded or lapsed meanwhile).
   */
  async recordVerified(invoiceId: string, method: 'dns' | 'file', now: Date): Promise<TransferProofRecord | null> {
    const [, count] = (await this.dataSource.query(
      `UPDATE invoices SET transfer_verified_at = COALESCE(transfer_verified_at, $2), transfer_verified_method = COALESCE(transfer_verified_method, $3)
       WHERE id = $1 AND status IN ('payment_authorized', 'disputed')`,
      [invoiceId, now, method],
    )) as [unknown, number];
    return count ? this.find(invoiceId, this.dataSource.manager) : null;
  }

  private async find(invoiceId: string, manager: EntityManager): Promise<TransferProofRecord | null> {
    const [row] = (await manager.query(`SELECT ${COLUMNS} FROM transfer_proofs p JOIN invoices i ON i.id = p.invoice_id WHERE p.invoice_id = $1`, [
      invoiceId,
    ])) as TransferProofRecord[];
    return row ?? null;
  }
}
