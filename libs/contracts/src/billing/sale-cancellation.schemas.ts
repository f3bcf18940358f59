import { z } from 'zod';
import { UuidSchema } from '../common.schemas';

/** POST /api/admin/invoices/{id}/cancel (ADR 0043): why the unpaid sale is cancelled (both parties are told), and whether the buyer gets a strike. */
export const CancelSaleSchema = z.strictObject({
  reason: z.string().trim().min(10, 'Give a reason of at least 10 characters').max(500, 'Keep the reason under 500 characters'),
  strike: z.boolean().default(false),
}).meta({ id: 'CancelSaleRequest' });
export type CancelSale = z.infer<typeof CancelSaleSchema>;

/** billing.admin.cancel_sale: the invoice the path names, and the body. */
export const CancelSaleRequestSchema = z.strictObject({ id: UuidSchema, reason: CancelSaleSchema.shape.reason, strike: z.boolean() });
export type CancelSaleRequest = z.infer<typeof CancelSaleRequestSchema>;
