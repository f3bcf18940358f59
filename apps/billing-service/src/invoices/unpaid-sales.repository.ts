import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { statusesAffectedBy, type InvoiceState } from '@market/domain';
import { INVOICE_COLUMNS, type InvoiceRecord } from './invoices.repository';

// Intent states in which the buyer's money is moving or held: the buyer has paid in time, the sale stands.
const PAYING = `('processing', 'requires_capture', 'succeeded')`;
/** Intent states of a payment started but never authorised. */
export const OPEN_UNAUTHORISED = ['requires_payment_method', 'requires_confirmation'];

/** The rows of unpaid sales (ADR 0043): reads and writes only; EndUnpaidSale decides when one ends. */
@Injectable()
export class UnpaidSalesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Unpaid invoices whose window has passed and no payment of which holds or moves money now, oldest first. A hold that
   * lapsed uncaptured counts for nothing: its invoice got a new window (D11, ADR 0063) and lapses at its end.
   */
  async lapsedIds(now: Date, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM invoices i WHERE pay_by <= $1 AND status = ANY($2::text[])
         AND NOT EXISTS (SELECT 1 FROM payment_intents p WHERE p.invoice_id = i.id AND p.status IN ${PAYING})
       ORDER BY pay_by LIMIT $3`,
      [now, statusesAffectedBy('payment_window_lapsed'), limit],
    );
    return rows.map((row) => row.id);
  }

  /** A buyer's unpaid invoices (those an admin could cancel), oldest first: what a suspension or deletion ends. */
  async unpaidOfBuyer(buyerId: string): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM invoices WHERE buyer_id = $1 AND status = ANY($2::text[]) ORDER BY created_at`,
      [buyerId, statusesAffectedBy('sale_cancelled')],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Provider ids of payments of ended sales still open or holding money: an authorisation that reached the provider
   * after the sale ended (a card form or hosted checkout completed late). They are released, never captured.
   */
  async lateHolds(limit: number): Promise<string[]> {
    const rows: { provider_intent_id: string }[] = await this.dataSource.query(
      `SELECT p.provider_intent_id FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id
       WHERE i.status = 'cancelled' AND p.status IN ('requires_payment_method', 'requires_confirmation', 'processing', 'requires_capture')
       ORDER BY p.created_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.provider_intent_id);
  }

  /** Provider ids of the invoice's payments started but never authorised, read outside any transaction. */
  async openUnauthorised(invoiceId: string): Promise<string[]> {
    const rows: { provider_intent_id: string }[] = await this.dataSource.query(
      'SELECT provider_intent_id FROM payment_intents WHERE invoice_id = $1 AND status = ANY($2::text[])',
      [invoiceId, OPEN_UNAUTHORISED],
    );
    return rows.map((row) => row.provider_intent_id);
  }

  /** An invoice as it stands, unlocked. */
  async find(invoiceId: string): Promise<InvoiceRecord | null> {
    const [invoice]: InvoiceRecord[] = await this.dataSource.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1`, [invoiceId]);
    return invoice ?? null;
  }

  /** A transaction of this repository's database. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The invoice, locked; with `wait` false, null at once when another transaction holds it. */
  async lockInvoice(invoiceId: string, wait: boolean, manager: EntityManager): Promise<InvoiceRecord | null> {
    const [invoice]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1 FOR UPDATE ${wait ? '' : 'SKIP LOCKED'}`, [invoiceId]);
    return invoice ?? null;
  }

  /** Whether the invoice exists (locked or not). */
  async exists(invoiceId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT 1 FROM invoices WHERE id = $1', [invoiceId]);
    return rows.length > 0;
  }

  /** The invoice's payments, locked (after the invoice: the order every payment path uses). */
  lockIntents(invoiceId: string, manager: EntityManager): Promise<{ provider_intent_id: string; status: string; authorized_at: Date | null }[]> {
    return manager.query('SELECT provider_intent_id, status, authorized_at FROM payment_intents WHERE invoice_id = $1 FOR UPDATE', [invoiceId]);
  }

  /** Writes the invoice's end: its new status, when, why and the admin's note. */
  async markEnded(invoiceId: string, status: InvoiceState, now: Date, reason: string, note: string | null, manager: EntityManager): Promise<InvoiceRecord> {
    const [[ended]]: [InvoiceRecord[]] = await manager.query(
      `UPDATE invoices SET status = $2, cancelled_at = $3, cancel_reason = $4, cancel_note = $5, updated_at = now()
       WHERE id = $1 RETURNING ${INVOICE_COLUMNS}`,
      [invoiceId, status, now, reason, note],
    );
    return ended;
  }
}
