import { Inject, Injectable } from '@nestjs/common';
import { adminActed, type Actor } from '@market/contracts';
import { invoiceTransition, type InvoiceEvent } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import type { InvoiceRecord } from './invoices.repository';
import { OPEN_UNAUTHORISED, UnpaidSalesRepository } from './unpaid-sales.repository';
import { saleLapsedPayload } from './sale-lapsed.event';
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

const AUTHORISED_REMOTELY = ['processing', 'requires_capture', 'succeeded'];

/**
 * Ends unpaid sales (ADR 0043, 0070): the one place an invoice becomes `cancelled`, with `sale.lapsed` in the same
 * transaction. The invoice row is locked first (the order every payment path uses), so a lapse and the buyer's
 * authorisation are decided one after the other: an invoice with an authorised or processing payment is never ended,
 * and an open payment the provider has authorised but we have not yet heard of is looked up before the lock.
 */
@Injectable()
export class EndUnpaidSale {
  constructor(
    private readonly rows: UnpaidSalesRepository,
    @Inject(PAYMENT_PROVIDER) private readonly provider: Pick<PaymentProvider, 'retrieve'>,
  ) {}

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
      if (attempt >= 3) return { ended: false, invoice: await this.rows.find(invoiceId), why: 'busy' };
    }
  }

  /** The invoice's open unauthorised payments as the provider knows them now, asked outside any transaction. */
  private async askProvider(invoiceId: string): Promise<{ open: string[]; authorised: boolean }> {
    const open = (await this.rows.openUnauthorised(invoiceId)).sort();
    for (const intentId of open) {
      const remote = await this.provider.retrieve(intentId);
      if (remote && (remote.authorized_at !== null || AUTHORISED_REMOTELY.includes(remote.status))) return { open, authorised: true };
    }
    return { open, authorised: false };
  }

  private endUnderLock(invoiceId: string, ending: SaleEnding, now: Date, options: { wait: boolean }, asked: { open: string[]; authorised: boolean }): Promise<EndResult | 'changed'> {
    return this.rows.transaction(async (manager): Promise<EndResult | 'changed'> => {
      const invoice = await this.rows.lockInvoice(invoiceId, options.wait, manager);
      if (!invoice) return { ended: false, invoice: null, why: (await this.rows.exists(invoiceId, manager)) ? 'busy' : 'missing' };
      const next = invoiceTransition(invoice.status, ending.event);
      if (next === null) return { ended: false, invoice, why: 'not_unpaid' };
      const intents = await this.rows.lockIntents(invoiceId, manager);
      if (intents.some((intent) => !['canceled', ...OPEN_UNAUTHORISED].includes(intent.status))) return { ended: false, invoice, why: 'authorised' };
      // The buyer may have completed a payment whose notice has not reached us: the provider's word (asked just before) wins.
      if (asked.authorised) return { ended: false, invoice, why: 'authorised' };
      const open = intents
        .filter((intent) => OPEN_UNAUTHORISED.includes(intent.status))
        .map((intent) => intent.provider_intent_id)
        .sort();
      if (open.join(',') !== asked.open.join(',')) return 'changed';
      const ended = await this.rows.markEnded(invoiceId, next, now, ending.reason, ending.note, manager);
      await appendEvent(manager, 'sale.lapsed', saleLapsedPayload(ended, ending, now));
      if (ending.admin) {
        const change = { before: { status: invoice.status }, after: { status: ended.status, reason: ending.note, strike: ending.strike } };
        await appendEvent(manager, 'admin.acted', adminActed(ending.admin, { action: 'invoice.sale_cancelled', target_type: 'invoice', target_id: ended.id, target_label: ended.invoice_number, ...change }));
      }
      return { ended: true, invoice: ended, openIntents: open };
    });
  }
}
