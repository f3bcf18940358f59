import { z } from 'zod';
import { IsoDateTimeSchema, WholeDollarsSchema, DollarsAndCentsSchema } from '../common.schemas';
import { InvoicePartySchema, InvoiceStatusSchema } from './invoice.schemas';

/** How the admin Transactions tab groups invoice statuses (ADR 0021). */
export const TRANSACTION_STATUSES = ['completed', 'pending', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** GET /api/admin/transactions?status=all|completed|pending|failed (default all). */
export const AdminTransactionsQuerySchema = z.object({
  status: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.enum(['all', ...TRANSACTION_STATUSES]).default('all')),
});
export type AdminTransactionsQuery = z.infer<typeof AdminTransactionsQuerySchema>;

/** One row of the admin Transactions tab: an invoice, with its latest payment's status. Money in dollars. */
export const AdminTransactionSchema = z.strictObject({
  id: z.uuid(),
  /** The invoice number (INV-YYYY-NNNNNN), shown as the Transaction ID. */
  transaction_id: z.string(),
  listing_id: z.uuid(),
  listing_title: z.string(),
  buyer: InvoicePartySchema,
  seller: InvoicePartySchema,
  amount: WholeDollarsSchema,
  status: z.enum(TRANSACTION_STATUSES),
  invoice_status: InvoiceStatusSchema,
  /** The status of the invoice's most recent payment intent, or null when no card payment was started. */
  payment_status: z.string().nullable(),
  /** When the invoice was made. */
  date: IsoDateTimeSchema,
});
export type AdminTransactionDto = z.infer<typeof AdminTransactionSchema>;

/** GET /api/admin/transactions: newest first, at most 1000. */
export const AdminTransactionsResponseSchema = z.strictObject({ transactions: z.array(AdminTransactionSchema) }).meta({ id: 'AdminTransactionsResponse' });
export type AdminTransactionsResponse = z.infer<typeof AdminTransactionsResponseSchema>;

/** The unpaid-invoice age buckets of the analytics (SPEC §3), by whole days since creation. */
export const AGING_BUCKETS = ['0-7_days', '8-30_days', '31-60_days', '60+_days'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export const AgingBucketFiguresSchema = z.strictObject({
  count: z.number().int(),
  amount: WholeDollarsSchema,
}).meta({ id: 'AgingBucketFigures' });
export type AgingBucketFigures = z.infer<typeof AgingBucketFiguresSchema>;

/** Paid revenue of one UTC day (YYYY-MM-DD), dollars. */
export const RevenuePointSchema = z.strictObject({ date: z.iso.date(), revenue: WholeDollarsSchema });
export type RevenuePoint = z.infer<typeof RevenuePointSchema>;

/** GET /api/admin/invoice-analytics (SPEC §3 Invoice analytics, plus revenue_over_time; ADR 0021). Money in dollars. */
export const InvoiceAnalyticsSchema = z.strictObject({
  overview: z.strictObject({
    total_invoices: z.number().int(),
    paid_invoices: z.number().int(),
    pending_invoices: z.number().int(),
    overdue_invoices: z.number().int(),
  }),
  financial: z.strictObject({ total_revenue: WholeDollarsSchema, pending_revenue: WholeDollarsSchema, overdue_revenue: WholeDollarsSchema, avg_invoice_value: DollarsAndCentsSchema }),
  /** Percent with one decimal; 0 when there are no invoices. */
  performance: z.strictObject({ payment_rate: z.number(), overdue_rate: z.number() }),
  aging_analysis: z.strictObject(
    Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, AgingBucketFiguresSchema])) as Record<AgingBucket, typeof AgingBucketFiguresSchema>,
  ),
  top_customers: z.array(z.strictObject({ customer_id: z.uuid(), customer_name: z.string(), revenue: WholeDollarsSchema })),
  /** The last 30 UTC days, oldest first, today included; days without payments are 0. */
  revenue_over_time: z.array(RevenuePointSchema),
}).meta({ id: 'InvoiceAnalytics' });
export type InvoiceAnalytics = z.infer<typeof InvoiceAnalyticsSchema>;
