import { z } from 'zod';
import type { InvoiceParty, InvoiceStatus } from './invoice.schemas';

/** How the admin Transactions tab groups invoice statuses (ADR 0021). */
export const TRANSACTION_STATUSES = ['completed', 'pending', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** GET /api/admin/transactions?status=all|completed|pending|failed (default all). */
export const AdminTransactionsQuerySchema = z.object({
  status: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.enum(['all', ...TRANSACTION_STATUSES]).default('all')),
});
export type AdminTransactionsQuery = z.infer<typeof AdminTransactionsQuerySchema>;

/** One row of the admin Transactions tab: an invoice, with its latest payment's status. Money in dollars. */
export interface AdminTransactionDto {
  id: string;
  /** The invoice number (INV-YYYY-NNNNNN), shown as the Transaction ID. */
  transaction_id: string;
  listing_id: string;
  listing_title: string;
  buyer: InvoiceParty;
  seller: InvoiceParty;
  amount: number;
  status: TransactionStatus;
  invoice_status: InvoiceStatus;
  /** The status of the invoice's most recent payment intent, or null when no card payment was started. */
  payment_status: string | null;
  /** When the invoice was made (ISO). */
  date: string;
}

/** GET /api/admin/transactions: newest first, at most 1000. */
export interface AdminTransactionsResponse {
  transactions: AdminTransactionDto[];
}

/** The unpaid-invoice age buckets of the analytics (SPEC §3), by whole days since creation. */
export const AGING_BUCKETS = ['0-7_days', '8-30_days', '31-60_days', '60+_days'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export interface AgingBucketFigures {
  count: number;
  /** Dollars. */
  amount: number;
}

/** Paid revenue of one UTC day (YYYY-MM-DD), dollars. */
export interface RevenuePoint {
  date: string;
  revenue: number;
}

/** GET /api/admin/invoice-analytics (SPEC §3 Invoice analytics, plus revenue_over_time; ADR 0021). Money in dollars. */
export interface InvoiceAnalytics {
  overview: { total_invoices: number; paid_invoices: number; pending_invoices: number; overdue_invoices: number };
  financial: { total_revenue: number; pending_revenue: number; overdue_revenue: number; avg_invoice_value: number };
  /** Percent with one decimal; 0 when there are no invoices. */
  performance: { payment_rate: number; overdue_rate: number };
  aging_analysis: Record<AgingBucket, AgingBucketFigures>;
  top_customers: { customer_id: string; customer_name: string; revenue: number }[];
  /** The last 30 UTC days, oldest first, today included; days without payments are 0. */
  revenue_over_time: RevenuePoint[];
}
