import { Injectable } from '@nestjs/common';
import type { Actor, CancelSaleRequest, InvoiceActionResponse } from '@market/contracts';
import { conflict, notFound, OutboxRelay, requireAdmin } from '@market/server-kit';
import { EndUnpaidSale } from './end-unpaid-sale';
import { PaymentWindowSweep } from './payment-window.sweep';
import { InvoicesService } from './invoices.service';

/**
 * An admin's cancel of an unpaid sale (ADR 0043): the same ending as a lapsed payment window, with the admin's reason,
 * a strike only when the admin asks for one, and the act audited in the invoice's transaction.
 */
@Injectable()
export class SaleCancellationService {
  constructor(
    private readonly sales: EndUnpaidSale,
    private readonly window: PaymentWindowSweep,
    private readonly invoices: InvoicesService,
    private readonly relay: OutboxRelay,
  ) {}

  /** Cancels the invoice's sale; 404 when there is no such invoice, 409 when money is held or taken for it. */
  async cancel(actor: Actor | null, input: CancelSaleRequest, now = new Date()): Promise<InvoiceActionResponse> {
    const admin = requireAdmin(actor);
    const ending = { event: 'sale_cancelled', reason: 'admin_cancelled', strike: input.strike, note: input.reason, admin } as const;
    const result = await this.sales.end(input.id, ending, now, { wait: true });
    if (!result.ended) {
      if (result.why === 'missing' || !result.invoice) throw notFound('Invoice not found');
      if (result.invoice.status === 'cancelled') throw conflict('This sale is already cancelled.');
      throw conflict(
        `Only an unpaid sale can be cancelled; this invoice is ${result.invoice.status.replace(/_/g, ' ')}${result.why === 'authorised' ? ' with the buyer\'s card authorised' : ''}. Refund the payment instead.`,
      );
    }
    this.relay.kick();
    await this.window.cancelOpen(result.openIntents);
    return { message: 'Sale cancelled. The buyer and the seller are told why, and the listing goes back on sale.', invoice: await this.invoices.get(admin, input.id) };
  }
}
