import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { INVOICE_COLUMNS, type InvoiceRecord } from '../invoices/invoices.repository';
import type { ProviderTransfer } from '../payments/payment-provider';
import { PAYOUT_COLUMNS, type PayoutRecord } from './payouts.repository';

/**
 * The rows of payouts on their way to the seller (D22): attempts, sends, failures and reversals; reads and writes only
 * (RecordPayoutSends decides what a transfer does to the books).
 */
@Injectable()
export class PayoutSendsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A payout's status now. */
  async statusOf(payoutId: string): Promise<string | null> {
    const [row]: { status: string }[] = await this.dataSource.query('SELECT status FROM payouts WHERE id = $1', [payoutId]);
    return row?.status ?? null;
  }

  /** A transaction of this repository's database. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The invoices of these payouts, then the payouts, each locked in id order: the order every payment path locks in. */
  async lockWithInvoices(payoutIds: string[], manager: EntityManager): Promise<{ invoices: InvoiceRecord[]; payouts: PayoutRecord[] }> {
    const refs: { invoice_id: string }[] = await manager.query('SELECT invoice_id FROM payouts WHERE id = ANY($1::uuid[])', [payoutIds]);
    const invoices: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [refs.map((r) => r.invoice_id)]);
    const payouts: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [payoutIds]);
    return { invoices, payouts };
  }

  /** Keeps why a payout was not recorded as sent, for a person to look at. */
  async noteError(payoutId: string, error: string, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE payouts SET last_error = $2, updated_at = now() WHERE id = $1', [payoutId, error]);
  }

  /** Marks payouts paid by these transfers. */
  async markPaid(payoutIds: string[], transfers: ProviderTransfer[], manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE payouts p SET status = 'paid', provider_transfer_id = s.transfer, paid_at = s.at, last_error = NULL, updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS s(id, transfer, at) WHERE p.id = s.id`,
      [payoutIds, transfers.map((t) => t.id), transfers.map((t) => t.created_at)],
    );
  }

  /**
   * payout_sent: a held invoice becomes paid; one in any other state (refunded meanwhile) keeps it. Answers the ids
   * of the invoices that turned paid now, with when.
   */
  async markInvoicesPaid(invoiceIds: string[], manager: EntityManager): Promise<Map<string, Date>> {
    const [rows]: [{ id: string; paid_at: Date }[], number] = await manager.query(
      `UPDATE invoices SET status = 'paid', paid_at = now(), updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'payment_authorized'
       RETURNING id, paid_at`,
      [invoiceIds],
    );
    return new Map(rows.map((row) => [row.id, row.paid_at]));
  }

  /** A payout, locked; null when there is none. */
  async lockPayout(payoutId: string, manager: EntityManager): Promise<PayoutRecord | null> {
    const [payout]: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1 FOR UPDATE`, [payoutId]);
    return payout ?? null;
  }

  /** Marks a payout reversed. */
  async markReversed(payoutId: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE payouts SET status = 'reversed', updated_at = now() WHERE id = $1`, [payoutId]);
  }

  /**
   * Counts send attempts before the provider is asked, in their own statement: any attempt after the first (a crash, a
   * lost answer, whatever happened to the one before) looks for the invoice's transfer before making one (ADR 0063).
   * Answers each payout's attempt number.
   */
  async beginAttempts(payoutIds: string[]): Promise<Map<string, number>> {
    if (payoutIds.length === 0) return new Map();
    const [rows]: [{ id: string; attempts: number }[], number] = await this.dataSource.query(
      'UPDATE payouts SET attempts = attempts + 1, updated_at = now() WHERE id = ANY($1::uuid[]) RETURNING id, attempts',
      [payoutIds],
    );
    return new Map(rows.map((row) => [row.id, row.attempts]));
  }

  /**
   * A send that failed (the provider slow, down, or refusing): its error kept; the funds stay held. A timeout keeps the
   * idempotency key, so the retry is the same transfer; the provider's refusal of the account (no transfer was made)
   * takes a new key, since Stripe would replay the refusal under its key for a day (ADR 0063).
   */
  async markFailed(payoutId: string, error: string, refusedAccount: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE payouts SET last_error = $2, updated_at = now(),
         status = CASE WHEN $3 THEN 'waiting_for_account' ELSE status END,
         idempotency_key = CASE WHEN $3 THEN 'payout-' || invoice_id || '-' || attempts ELSE idempotency_key END
       WHERE id = $1 AND status IN ('pending', 'waiting_for_account')`,
      [payoutId, error.slice(0, 500), refusedAccount],
    );
  }

  /** Sellers with payouts waiting for their account, not looked at for `quietMs`: their accounts are read again. */
  async waitingSellers(quietMs: number, limit: number): Promise<string[]> {
    const rows: { seller_id: string }[] = await this.dataSource.query(
      `SELECT seller_id FROM payouts WHERE status = 'waiting_for_account' GROUP BY seller_id
       HAVING max(updated_at) <= now() - make_interval(secs => $1) ORDER BY min(created_at) LIMIT $2`,
      [quietMs / 1000, limit],
    );
    return rows.map((row) => row.seller_id);
  }

  /** Marks a seller's waiting payouts looked at, so the next look waits its turn. */
  async touchWaiting(sellerId: string): Promise<void> {
    await this.dataSource.query(`UPDATE payouts SET updated_at = now() WHERE seller_id = $1 AND status = 'waiting_for_account'`, [sellerId]);
  }

  /** The seller's account is not (yet) able to take payouts: the payout waits for it, its key unchanged (nothing was asked). */
  async markWaiting(payoutId: string, why: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE payouts SET status = 'waiting_for_account', last_error = $2, updated_at = now() WHERE id = $1 AND status IN ('pending', 'waiting_for_account')`,
      [payoutId, why],
    );
  }

  /** A seller's account can take payouts now: their waiting payouts are to be sent. */
  async readyFor(sellerId: string): Promise<PayoutRecord[]> {
    const [rows]: [PayoutRecord[], number] = await this.dataSource.query(
      `UPDATE payouts SET status = 'pending', updated_at = now() WHERE seller_id = $1 AND status IN ('waiting_for_account', 'pending')
       RETURNING ${PAYOUT_COLUMNS}`,
      [sellerId],
    );
    return rows;
  }

  /** Payouts to send (new, or retried after a failure), oldest first. */
  pending(limit: number): Promise<PayoutRecord[]> {
    return this.dataSource.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE status = 'pending' ORDER BY created_at LIMIT $1`, [limit]);
  }
}
