import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import { InvoiceActionResponseSchema } from './invoice.schemas';
import { CancelSaleSchema } from './sale-cancellation.schemas';

/** An admin cancels an unpaid sale (ADR 0043). */
export const SALE_CANCELLATION_ROUTES = {
  cancel: defineRoute({
    method: 'post',
    path: '/admin/invoices/{id}/cancel',
    tag: 'admin-billing',
    summary: 'Cancel an unpaid sale with a reason',
    description:
      'The invoice becomes cancelled and the sale is unwound as when its payment window lapses: the listing goes back on sale (or, ended, its other bids open for the seller). ' +
      'No strike for the buyer unless `strike` is true. Both parties are told the reason; audited (ADR 0032, 0043). A paid, held or disputed invoice is refused (409): refund it instead.',
    auth: 'admin',
    params: z.object({ id: UuidSchema }),
    body: CancelSaleSchema,
    status: 200,
    reply: InvoiceActionResponseSchema,
    errors: [404, 409],
  }),
};
