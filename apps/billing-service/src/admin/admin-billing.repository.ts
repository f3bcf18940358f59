import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { INVOICE_STATES, type InvoiceState } from '@market/domain';
import type { AgingBucket, AgingBucketFigures, InvoiceAnalytics, RevenuePoint, TransactionStatus } from '@market/contracts';

/** The Transactions tab's grouping of invoice statuses (ADR 0021): every status in exactly one group. */
export const TRANSACTION_STATUS_OF: Record<InvoiceState, TransactionStatus> = {
  paid: 'completed',
  payment_failed: 'failed',
  payment_canceled: 'failed',
  pending: 'pending',
  overdue: 'pending',
  awaiting_payment: 'pending',
  payment_authorized: 'pending',
  // Funds held while an admin decides (ADR 0039): not paid yet, not failed.
  disputed: 'pending',
  // An unpaid sale that lapsed or an admin cancelled (ADR 0043): no money moved, the sale did not happen.
  cancelled: 'failed',
};

/** The invoice statuses of one Transactions group. */
export function invoiceStatusesOf(group: TransactionStatus): InvoiceState[] {
  return INVOICE_STATES.filter((status) => TRANSACTION_STATUS_OF[status] === group);
}

/** One invoice as the Transactions tab lists it, with its latest payment intent's status (null: none). */
export interface TransactionRecord {
  id: string;
  invoice_number: string;
  listing_id: string;
  website_title: string;
  buyer_id: string;
  seller_id: string;
  amount_cents: number;
  status: InvoiceState;
  payment_status: string | null;
  created_at: Date;
}

/** The figures of the analytics that need no names; top customers carry ids only. */
export type AnalyticsFigures = Omit<InvoiceAnalytics, 'top_customers'> & { top_customers: { customer_id: string; revenue: number }[] };

export const REVENUE_DAYS = 30;
const TOP_CUSTOMERS = 5;
// Money leaves SQL in dollars: bigint cents / 100.0 is exact numeric, then a double (at most 10^9 dollars, exact to the cent).
const DOLLARS = (cents: string) => `(coalesce(${cents}, 0) / 100.0)::float8`;
const RATE = (part: string) => `(CASE WHEN count(*) = 0 THEN 0 ELSE round(100.0 * ${part} / count(*), 1) END)::float8`;
// Whole days since creation at $1; an invoice dated after $1 (clock skew between replicas) counts as 0 days old.
const AGE_DAYS = `greatest(0, floor(extract(epoch FROM ($1::timestamptz - created_at)) / 86400))`;
const AGING_RANGES: Record<AgingBucket, [number, number | null]> = {
  '0-7_days': [0, 7],
  '8-30_days': [8, 30],
  '31-60_days': [31, 60],
  '60+_days': [61, null],
};

/** Admin reads over billing.invoices (and payment_intents): every figure is aggregated by PostgreSQL. */
@Injectable()
export class AdminBillingRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Invoices newest first, optionally only some statuses, each with its latest payment intent's status. */
  transactions(statuses: InvoiceState[] | null, limit: number): Promise<TransactionRecord[]> {
    return this.dataSource.query(
      `WITH page AS (
         SELECT id, invoice_number, listing_id, website_title, buyer_id, seller_id, amount_cents, status, created_at
         FROM invoices WHERE $1::text[] IS NULL OR status = ANY($1::text[])
         ORDER BY created_at DESC, id DESC LIMIT $2)
       SELECT page.id, page.invoice_number, page.listing_id, page.website_title, page.buyer_id, page.seller_id,
              page.amount_cents::float8 AS amount_cents, page.status, page.created_at, latest.status AS payment_status
       FROM page LEFT JOIN LATERAL (
         SELECT p.status FROM payment_intents p WHERE p.invoice_id = page.id ORDER BY p.created_at DESC, p.id DESC LIMIT 1
       ) latest ON true
       ORDER BY page.created_at DESC, page.id DESC`,
      [statuses, limit],
    );
  }

  /** Every analytics figure as of `now` (ADR 0021), in three aggregate queries. */
  async analytics(now: Date): Promise<AnalyticsFigures> {
    const unpaid = `status <> 'paid'`;
    const notOverdue = `status NOT IN ('paid', 'overdue')`;
    const aging = Object.values(AGING_RANGES).map(([from, to], i) => {
      const inRange = `${unpaid} AND ${AGE_DAYS} >= ${from}${to === null ? '' : ` AND ${AGE_DAYS} <= ${to}`}`;
      return `count(*) FILTER (WHERE ${inRange})::int AS aging_count_${i}, ${DOLLARS(`sum(amount_cents) FILTER (WHERE ${inRange})`)} AS aging_amount_${i}`;
    });
    const [totals]: Record<string, number>[] = await this.dataSource.query(
      `SELECT count(*)::int AS total_invoices,
              count(*) FILTER (WHERE status = 'paid')::int AS paid_invoices,
              count(*) FILTER (WHERE ${notOverdue})::int AS pending_invoices,
              count(*) FILTER (WHERE status = 'overdue')::int AS overdue_invoices,
              ${DOLLARS(`sum(amount_cents) FILTER (WHERE status = 'paid')`)} AS total_revenue,
              ${DOLLARS(`sum(amount_cents) FILTER (WHERE ${notOverdue})`)} AS pending_revenue,
              ${DOLLARS(`sum(amount_cents) FILTER (WHERE status = 'overdue')`)} AS overdue_revenue,
              ${DOLLARS('round(avg(amount_cents))')} AS avg_invoice_value,
              ${RATE(`count(*) FILTER (WHERE status = 'paid')`)} AS payment_rate,
              ${RATE(`count(*) FILTER (WHERE status = 'overdue')`)} AS overdue_rate,
              ${aging.join(',\n              ')}
       FROM invoices`,
      [now],
    );
    const top: { customer_id: string; revenue: number }[] = await this.dataSource.query(
      `SELECT buyer_id AS customer_id, ${DOLLARS('sum(amount_cents)')} AS revenue
       FROM invoices WHERE status = 'paid' GROUP BY buyer_id ORDER BY sum(amount_cents) DESC, buyer_id LIMIT $1`,
      [TOP_CUSTOMERS],
    );
    const revenue: RevenuePoint[] = await this.dataSource.query(
      `WITH days AS (
         SELECT (($1::timestamptz AT TIME ZONE 'UTC')::date - $2::int + 1 + n) AS day FROM generate_series(0, $2::int - 1) AS n),
       paid AS (
         SELECT (paid_at AT TIME ZONE 'UTC')::date AS day, sum(amount_cents) AS cents FROM invoices
         WHERE status = 'paid'
           AND paid_at >= ((SELECT min(day) FROM days)::timestamp AT TIME ZONE 'UTC')
           AND paid_at < (((SELECT max(day) FROM days) + 1)::timestamp AT TIME ZONE 'UTC')
         GROUP BY 1)
       SELECT to_char(days.day, 'YYYY-MM-DD') AS date, ${DOLLARS('paid.cents')} AS revenue
       FROM days LEFT JOIN paid ON paid.day = days.day ORDER BY days.day`,
      [now, REVENUE_DAYS],
    );
    const buckets = Object.keys(AGING_RANGES) as AgingBucket[];
    return {
      overview: {
        total_invoices: totals.total_invoices,
        paid_invoices: totals.paid_invoices,
        pending_invoices: totals.pending_invoices,
        overdue_invoices: totals.overdue_invoices,
      },
      financial: {
        total_revenue: totals.total_revenue,
        pending_revenue: totals.pending_revenue,
        overdue_revenue: totals.overdue_revenue,
        avg_invoice_value: totals.avg_invoice_value,
      },
      performance: { payment_rate: totals.payment_rate, overdue_rate: totals.overdue_rate },
      aging_analysis: Object.fromEntries(
        buckets.map((bucket, i): [AgingBucket, AgingBucketFigures] => [bucket, { count: totals[`aging_count_${i}`], amount: totals[`aging_amount_${i}`] }]),
      ) as Record<AgingBucket, AgingBucketFigures>,
      top_customers: top,
      revenue_over_time: revenue,
    };
  }
}
