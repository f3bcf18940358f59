import type { EntityManager } from 'typeorm';
import { appendEvent } from '@market/server-kit';
import { INVOICE_COLUMNS, type InvoiceRecord } from './invoices.repository';
import { saleLapsedPayload } from './sale-lapsed.event';

/**
 * Announces a sale whose held funds went back to the buyer (a refund, a canceled hold, a disputed hold that lapsed;
 * D22, ADR 0063), in the transaction that cancelled its invoice: sale.lapsed with the reason `refunded` and no strike,
 * so bidding unwinds it as it unwinds an unpaid one (ADR 0043) and the listing never stays sold with no way out.
 */
export async function announceHeldSaleEnded(manager: EntityManager, invoiceId: string, at: Date): Promise<void> {
  const [invoice]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1`, [invoiceId]);
  await appendEvent(manager, 'sale.lapsed', saleLapsedPayload(invoice, { reason: 'refunded', strike: false, note: null }, at));
}
