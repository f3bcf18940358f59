import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { adminActed, type Actor } from '@market/contracts';
import { centsToDollars, invoiceTransition, statusesAffectedBy, type InvoiceEvent } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { INVOICE_COLUMNS, type InvoiceRecord } from './invoices.repository';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider';

/** How an unpaid sale ends (ADR 0043): its window lapsed, or an admin cancelled it with a note. */
export interface SaleEnding {
  event: Extract<InvoiceEvent, 'payment_window_lapsed' | 'sale_cancelled'>;
  reason: 'unpaid' | 'admin_cancelled';
  strike: boolean;
  note: string | null;
  /** The admin who cancels (audited in the same transaction, ADR 0032); none for a lapse. */
  admin?: Actor;
}

export type EndResult =
  | { ended: true; invoice: InvoiceRecord; openIntents: string[] }
  /** Not ended: gone, locked by a payment right now, paid or held (`status`), or the provider has just authorised it. */
  | { ended: false; invoice: InvoiceRecord | null; why: 'missing' | 'busy' | 'not_unpaid' | 'authorised' };

// Intent states in which the buyer's money is moving or held: the buyer has paid in time, the sale stands.
const PAYING = `('processing', 'requires_capture', 'succeeded')`;
const OPEN_UNAUTHORISED = ['requires_payment_method', 'requires_confirmation'];
/** sale.lapsed's `kind` of an invoice's sale type. */
export const KIND_OF = { auction_win: 'bid', accepted_offer: 'offer', buy_now: 'buy_now' } as const;

/**
 * Ends unpaid sales (ADR 0043): the one place an invoice becomes `cancelled`, with `sale.lapsed` in the same
 * transaction. The invoice row is locked first (the order every payment path uses), so a lapse and the buyer's
 * authorisation are decided one after the other: an invoice with an authorised or processing payment is never ended,
 * and an open payment the provider has authorised but we have not yet heard of is looked up under the lock.
 */
@Injectable()
export class UnpaidSalesRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_PROVIDER) private readonly provider: Pick<PaymentProvider, 'retrieve'>,
  ) {}

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

  /**
   * Ends one unpaid sale under the invoice's lock: the invoice becomes cancelled and sale.lapsed is written, or nothing
   * changes. `openIntents` are payments started but never authorised, which the caller cancels at the provider after
   * the commit, so an authorisation that comes later is released rather than taken (ADR 0043).
   *
   * The provider is asked about those open payments before the lock, never under it (ADR 0047): under the lock the
   * open payments must be the ones asked about (else a payment started meanwhile is asked about on the next attempt).
   */
  async end(invoiceId: string, ending: SaleEnding, now: Date, options: { wait: boolean }): Promise<EndResult> {
    for (let attempt = 1; ; attempt++) {
      const asked = await this.askProvider(invoiceId);
      const result = await this.endUnderLock(invoiceId, ending, now, options, asked);
      if (result !== 'changed') return result;
      // New payments keep appearing: let the next sweep (or the admin's retry) decide.
      if (attempt >= 3) return { ended: false, invoice: await this.find(invoiceId), why: 'busy' };
    }
  }

  /** The invoice's open unauthorised payments as the provider knows them now, asked outside any transaction. */
  private async askProvider(invoiceId: string): Promise<{ open: string[]; authorised: boolean }> {
    const rows: { provider_intent_id: string }[] = await this.dataSource.query(
      'SELECT provider_intent_id FROM payment_intents WHERE invoice_id = $1 AND status = ANY($2::text[])',
      [invoiceId, OPEN_UNAUTHORISED],
    );
    const open = rows.map((row) => row.provider_intent_id).sort();
    for (const intentId of open) {
      const remote = await this.provider.retrieve(intentId);
      if (remote && (remote.authorized_at !== null || ['processing', 'requires_capture', 'succeeded'].includes(remote.status))) {
        return { open, authorised: true };
      }
    }
    return { open, authorised: false };
  }

  private async find(invoiceId: string): Promise<InvoiceRecord | null> {
    const [invoice]: InvoiceRecord[] = await this.dataSource.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1`, [invoiceId]);
    return invoice ?? null;
  }

  private endUnderLock(
    invoiceId: string,
    ending: SaleEnding,
    now: Date,
    options: { wait: boolean },
    asked: { open: string[]; authorised: boolean },
  ): Promise<EndResult | 'changed'> {
    return this.dataSource.transaction(async (manager): Promise<EndResult | 'changed'> => {
      const [invoice]: InvoiceRecord[] = await manager.query(
        `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1 FOR UPDATE ${options.wait ? '' : 'SKIP LOCKED'}`,
        [invoiceId],
      );
      if (!invoice) {
        const [exists]: unknown[] = await manager.query('SELECT 1 FROM invoices WHERE id = $1', [invoiceId]);
        return { ended: false, invoice: null, why: exists ? 'busy' : 'missing' };
      }
      const next = invoiceTransition(invoice.status, ending.event);
      if (next === null) return { ended: false, invoice, why: 'not_unpaid' };
      const intents: { provider_intent_id: string; status: string; authorized_at: Date | null }[] = await manager.query(
        'SELECT provider_intent_id, status, authorized_at FROM payment_intents WHERE invoice_id = $1 FOR UPDATE',
        [invoiceId],
      );
      if (intents.some((intent) => !['canceled', ...OPEN_UNAUTHORISED].includes(intent.status))) {
        return { ended: false, invoice, why: 'authorised' };
      }
      // The buyer may have completed a payment whose notice has not reached us: the provider's word (asked just before) wins.
      if (asked.authorised) return { ended: false, invoice, why: 'authorised' };
      const open = intents
        .filter((intent) => OPEN_UNAUTHORISED.includes(intent.status))
        .map((intent) => intent.provider_intent_id)
        .sort();
      if (open.join(',') !== asked.open.join(',')) return 'changed';
      const [[ended]]: [InvoiceRecord[]] = await manager.query(
        `UPDATE invoices SET status = $2, cancelled_at = $3, cancel_reason = $4, cancel_note = $5, updated_at = now()
         WHERE id = $1 RETURNING ${INVOICE_COLUMNS}`,
        [invoiceId, next, now, ending.reason, ending.note],
      );
      await appendEvent(manager, 'sale.lapsed', {
        invoice_id: ended.id,
        invoice_number: ended.invoice_number,
        listing_id: ended.listing_id,
        bid_id: ended.bid_id,
        buyer_id: ended.buyer_id,
        seller_id: ended.seller_id,
        website_title: ended.website_title,
        kind: KIND_OF[ended.sale_type],
        amount: centsToDollars(ended.amount_cents),
        lapsed_at: now.toISOString(),
        reason: ending.reason,
        strike: ending.strike,
        note: ending.note,
      });
      if (ending.admin) {
        await appendEvent(
          manager,
          'admin.acted',
          adminActed(ending.admin, {
            action: 'invoice.sale_cancelled',
            target_type: 'invoice',
            target_id: ended.id,
            target_label: ended.invoice_number,
            before: { status: invoice.status },
            after: { status: ended.status, reason: ending.note, strike: ending.strike },
          }),
        );
      }
      return { ended: true, invoice: ended, openIntents: open };
    });
  }
}
