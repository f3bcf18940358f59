import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { dollarsToCents, dueDate, payBy, type InvoiceEvent, invoiceNumber, type InvoiceSaleType, type InvoiceState, invoiceTransition, statusesAffectedBy, successFee } from '@market/domain';

/** An invoice row as stored; cents as numbers (bigint cast: at most 10^11, exact in a double). */
export interface InvoiceRecord {
  id: string;
  invoice_number: string;
  bid_id: string;
  listing_id: string;
  buyer_id: string;
  seller_id: string;
  website_title: string;
  website_url: string | null;
  sale_type: InvoiceSaleType;
  amount_cents: number;
  success_fee_percent: number;
  fee_cents: number;
  payout_cents: number;
  status: InvoiceState;
  due_date: Date;
  created_at: Date;
  paid_at: Date | null;
  /** The transfer checklist (ADR 0039): when the seller started it and when the buyer confirmed receipt. */
  transfer_started_at: Date | null;
  transfer_received_at: Date | null;
  /** When the release of the funds began (D22): no dispute can be opened after it. */
  release_started_at: Date | null;
  /** When an admin's refund began: no release can be claimed while it stands (D22). */
  refund_started_at: Date | null;
  /** When the buyer's own token showed on the site's domain (ADR 0040): the transfer verified. */
  transfer_verified_at: Date | null;
  /** The end of the payment window (ADR 0043); null on invoices made before it existed. */
  pay_by: Date | null;
  /** When and why an unpaid sale ended (ADR 0043): the window lapsed, or an admin cancelled it with a note. */
  cancelled_at: Date | null;
  cancel_reason: 'unpaid' | 'admin_cancelled' | 'refunded' | null;
  cancel_note: string | null;
}

/** The facts of one sale an invoice is made from (bid.accepted), with the fee percent in force now. */
export interface SaleFacts {
  bid_id: string;
  listing_id: string;
  buyer_id: string;
  seller_id: string;
  website_title: string;
  website_url: string | null;
  sale_type: InvoiceSaleType;
  /** Whole dollars. */
  amount: number;
  success_fee_percent: number;
  /** The payment window in hours (ADR 0043); without it the invoice has no pay-by moment. */
  payment_window_hours?: number;
}

export type TransitionResult = { invoice: InvoiceRecord; applied: boolean } | null;

export const INVOICE_COLUMNS = `id, invoice_number, bid_id, listing_id, buyer_id, seller_id, website_title, website_url, sale_type,
  amount_cents::float8 AS amount_cents, success_fee_percent::float8 AS success_fee_percent, fee_cents::float8 AS fee_cents,
  payout_cents::float8 AS payout_cents, status, due_date, created_at, paid_at, transfer_started_at, transfer_received_at, release_started_at, refund_started_at,
  transfer_verified_at, pay_by, cancelled_at, cancel_reason, cancel_note`;
const SWEEP_BATCH = 1000;

/** The only place that reads and writes billing.invoices. */
@Injectable()
export class InvoicesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The invoice of a sale, made now unless it exists: whichever of two callers (a redelivered event, a second replica)
   * comes second finds the first one's row. The unique bid and listing make a second invoice impossible; a number
   * drawn by a caller that then loses the race is skipped, so numbers are unique and rising, not gapless.
   */
  async createForSale(sale: SaleFacts, now: Date, manager: EntityManager = this.dataSource.manager): Promise<{ invoice: InvoiceRecord; created: boolean }> {
    const existing = await this.findBySale(sale, manager);
    if (existing) return { invoice: existing, created: false };
    const fee = successFee(sale.amount, sale.success_fee_percent);
    const [{ seq }]: { seq: number }[] = await manager.query(`SELECT nextval('invoice_number_seq')::float8 AS seq`);
    const inserted: InvoiceRecord[] = await manager.query(
      `INSERT INTO invoices (id, invoice_number, bid_id, listing_id, buyer_id, seller_id, website_title, website_url, sale_type,
         amount_cents, success_fee_percent, fee_cents, payout_cents, status, due_date, created_at, pay_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'pending', $14, $15, $16)
       ON CONFLICT DO NOTHING RETURNING ${INVOICE_COLUMNS}`,
      [
        randomUUID(),
        invoiceNumber(now.getUTCFullYear(), seq),
        sale.bid_id,
        sale.listing_id,
        sale.buyer_id,
        sale.seller_id,
        sale.website_title,
        sale.website_url,
        sale.sale_type,
        dollarsToCents(sale.amount),
        sale.success_fee_percent,
        fee.fee_cents,
        fee.payout_cents,
        dueDate(now),
        now,
        sale.payment_window_hours === undefined ? null : payBy(now, sale.payment_window_hours),
      ],
    );
    if (inserted.length > 0) return { invoice: inserted[0], created: true };
    // Another transaction inserted this sale's invoice and committed while ours waited: this statement sees it.
    const winner = await this.findBySale(sale, manager);
    if (!winner) throw new Error(`Invoice for bid ${sale.bid_id} neither inserted nor found`);
    return { invoice: winner, created: false };
  }

  async findById(id: string): Promise<InvoiceRecord | null> {
    const [row]: InvoiceRecord[] = await this.dataSource.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1`, [id]);
    return row ?? null;
  }

  async findByBid(bidId: string): Promise<InvoiceRecord | null> {
    const [row]: InvoiceRecord[] = await this.dataSource.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE bid_id = $1`, [bidId]);
    return row ?? null;
  }

  /** Each invoice's seller. */
  async sellersOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; seller_id: string }[] = await this.dataSource.query('SELECT id, seller_id FROM invoices WHERE id = ANY($1::uuid[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.seller_id]));
  }

  /** A user's invoices as buyer and as seller, newest first. */
  listFor(userId: string, limit: number): Promise<InvoiceRecord[]> {
    return this.dataSource.query(
      `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE buyer_id = $1 OR seller_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
      [userId, limit],
    );
  }

  /**
   * Applies an event to one invoice under its row lock, by the domain's transition table: `applied` is false (and the
   * row unchanged) when the event does not apply in its status. Null when there is no such invoice.
   */
  transition(id: string, event: InvoiceEvent, now: Date): Promise<TransitionResult> {
    return this.dataSource.transaction(async (manager) => {
      const [row]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1 FOR UPDATE`, [id]);
      if (!row) return null;
      const next = invoiceTransition(row.status, event);
      if (next === null) return { invoice: row, applied: false };
      const [updated]: InvoiceRecord[] = (
        await manager.query(
          `UPDATE invoices SET status = $2, updated_at = now(),
             paid_at = CASE WHEN $2 = 'paid' THEN $3::timestamptz WHEN status = 'paid' THEN NULL ELSE paid_at END
           WHERE id = $1 RETURNING ${INVOICE_COLUMNS}`,
          [id, next, now],
        )
      )[0];
      return { invoice: updated, applied: true };
    });
  }

  /**
   * Marks every unpaid invoice whose due date has passed overdue (D10), by the domain's transition for
   * `due_date_passed`, in batches that replicas share (SKIP LOCKED). Returns how many changed.
   */
  async markOverdue(now: Date): Promise<number> {
    const byTarget = new Map<InvoiceState, InvoiceState[]>();
    for (const status of statusesAffectedBy('due_date_passed')) {
      const target = invoiceTransition(status, 'due_date_passed') as InvoiceState;
      byTarget.set(target, [...(byTarget.get(target) ?? []), status]);
    }
    let total = 0;
    for (const [target, from] of byTarget) {
      for (;;) {
        const [, count]: [unknown, number] = await this.dataSource.query(
          `UPDATE invoices SET status = $1, updated_at = now()
           WHERE id IN (SELECT id FROM invoices WHERE status = ANY($2::text[]) AND due_date <= $3 LIMIT $4 FOR UPDATE SKIP LOCKED)
             AND status = ANY($2::text[])`,
          [target, from, now, SWEEP_BATCH],
        );
        total += count;
        if (count < SWEEP_BATCH) break;
      }
    }
    return total;
  }

  /** How many invoices are paid (admin stats: total_transactions). */
  async countPaid(): Promise<number> {
    const [{ count }]: { count: number }[] = await this.dataSource.query(`SELECT count(*)::int AS count FROM invoices WHERE status = 'paid'`);
    return count;
  }

  private async findBySale(sale: Pick<SaleFacts, 'bid_id' | 'listing_id'>, manager: EntityManager): Promise<InvoiceRecord | null> {
    // A cancelled invoice's sale was unwound (ADR 0043): the listing's next sale gets an invoice of its own.
    const [row]: InvoiceRecord[] = await manager.query(
      `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE bid_id = $1 OR (listing_id = $2 AND status <> 'cancelled') LIMIT 1`,
      [sale.bid_id, sale.listing_id],
    );
    return row ?? null;
  }
}
