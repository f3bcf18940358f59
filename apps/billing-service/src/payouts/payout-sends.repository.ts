import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { centsToDollars, payoutEntries, payoutReversedEntries } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { INVOICE_COLUMNS, type InvoiceRecord } from '../invoices/invoices.repository';
import { LedgerRepository } from '../ledger/ledger.repository';
import type { ProviderTransfer } from '../payments/payment-provider';
import { PAYOUT_COLUMNS, type PayoutRecord } from './payouts.repository';

/**
 * Payouts on their way to the seller (D22): attempts counted before the provider is asked, transfers the provider made
 * recorded (the payout and the invoice paid, the ledger's payout, payout.sent) and reversals booked back, failures kept
 * with the money still held. Each change locks the invoice first, then the payout, as every payment path does.
 */
@Injectable()
export class PayoutSendsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ledger: LedgerRepository,
  ) {}

  /** A payout's status now. */
  async statusOf(payoutId: string): Promise<string | null> {
    const [row]: { status: string }[] = await this.dataSource.query('SELECT status FROM payouts WHERE id = $1', [payoutId]);
    return row?.status ?? null;
  }

  /** One transfer's confirmation (markSentMany for one); false when the payout was already paid. */
  async markSent(payoutId: string, transfer: ProviderTransfer, testMode: boolean): Promise<boolean> {
    return (await this.markSentMany([{ payoutId, transfer }], testMode)) === 1;
  }

  /**
   * Records transfers the provider made for payouts (D22), in one transaction: each payout is paid, the seller's
   * payable leaves the platform's balance in the ledger, the invoice is paid and payout.sent tells both parties. A
   * second confirmation of the same transfer changes nothing; answers how many were recorded now.
   */
  markSentMany(sent: { payoutId: string; transfer: ProviderTransfer }[], testMode: boolean): Promise<number> {
    if (sent.length === 0) return Promise.resolve(0);
    return this.dataSource.transaction(async (manager) => {
      const byPayout = new Map(sent.map((s) => [s.payoutId, s.transfer]));
      const refs: { invoice_id: string }[] = await manager.query('SELECT invoice_id FROM payouts WHERE id = ANY($1::uuid[])', [[...byPayout.keys()]]);
      // Invoices first, then payouts, each in id order: the order every payment path locks in.
      const invoices: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [
        refs.map((r) => r.invoice_id),
      ]);
      const payouts: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [[...byPayout.keys()]]);
      const invoiceOf = new Map(invoices.map((i) => [i.id, i]));
      const open = payouts.filter((p) => p.status !== 'paid' && p.status !== 'reversed');
      // A transfer that does not carry exactly the payout's net is never recorded as it: a person must look (the
      // reconciliation shows the transfer too); the others of the batch go on.
      const mismatched = open.filter((p) => (byPayout.get(p.id) as ProviderTransfer).amount_cents !== p.net_cents);
      for (const payout of mismatched) {
        const transfer = byPayout.get(payout.id) as ProviderTransfer;
        await manager.query('UPDATE payouts SET last_error = $2, updated_at = now() WHERE id = $1', [
          payout.id,
          `Transfer ${transfer.id} of ${transfer.amount_cents} cents does not match this payout's ${payout.net_cents}: check it at the provider`,
        ]);
      }
      const due = open.filter((p) => !mismatched.includes(p));
      if (due.length === 0) return 0;
      const transfers = due.map((p) => byPayout.get(p.id) as ProviderTransfer);
      await manager.query(
        `UPDATE payouts p SET status = 'paid', provider_transfer_id = s.transfer, paid_at = s.at, last_error = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS s(id, transfer, at) WHERE p.id = s.id`,
        [due.map((p) => p.id), transfers.map((t) => t.id), transfers.map((t) => t.created_at)],
      );
      await this.ledger.recordMany(
        manager,
        due.map((payout, i) => ({
          kind: 'payout' as const,
          key: `payout:${payout.id}`,
          invoice_id: payout.invoice_id,
          payout_id: payout.id,
          provider_ref: transfers[i].balance?.id ?? null,
          provider_at: transfers[i].balance?.created_at ?? null,
          entries: payoutEntries(payout.seller_id, payout.net_cents),
        })),
      );
      // payout_sent: a held invoice becomes paid; one in any other state (refunded meanwhile) keeps it, and the
      // reconciliation shows the transfer.
      await manager.query(`UPDATE invoices SET status = 'paid', paid_at = now(), updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'payment_authorized'`, [
        due.map((p) => p.invoice_id),
      ]);
      for (const [i, payout] of due.entries()) {
        const invoice = invoiceOf.get(payout.invoice_id) as InvoiceRecord;
        await appendEvent(manager, 'payout.sent', {
          payout_id: payout.id,
          invoice_id: invoice.id,
          invoice_number: invoice.invoice_number,
          buyer_id: invoice.buyer_id,
          seller_id: invoice.seller_id,
          website_title: invoice.website_title,
          gross: centsToDollars(payout.gross_cents),
          fee: centsToDollars(payout.fee_cents),
          net: centsToDollars(payout.net_cents),
          sent_at: new Date(transfers[i].created_at).toISOString(),
          test_mode: testMode,
        });
      }
      return due.length;
    });
  }

  /** A transfer the provider reversed: the money is back in the platform's balance and owed to the seller again. */
  markReversed(payoutId: string, transfer: ProviderTransfer): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [payout]: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1 FOR UPDATE`, [payoutId]);
      if (!payout || payout.status !== 'paid') return false;
      await manager.query(`UPDATE payouts SET status = 'reversed', updated_at = now() WHERE id = $1`, [payoutId]);
      await this.ledger.record(manager, {
        kind: 'payout_reversed',
        key: `payout_reversed:${payoutId}`,
        invoice_id: payout.invoice_id,
        payout_id: payoutId,
        provider_ref: transfer.reversal_balance?.id ?? null,
        provider_at: transfer.reversal_balance?.created_at ?? null,
        entries: payoutReversedEntries(payout.seller_id, payout.net_cents),
      });
      return true;
    });
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
