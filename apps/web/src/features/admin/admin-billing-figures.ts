import type { AdminTransactionDto, AgingBucket, InvoiceAnalytics, TransactionStatus } from '@market/contracts';

export type TransactionFilter = 'all' | TransactionStatus;

/** The Transactions status filter (SPEC §2): labels as the original app shows them. */
export const TRANSACTION_FILTER_OPTIONS: { value: TransactionFilter; label: string }[] = [
  { value: 'all', label: 'All Transactions' },
  { value: 'completed', label: 'completed' },
  { value: 'pending', label: 'pending' },
  { value: 'failed', label: 'failed' },
];

/** The exact empty prompt of the Analytics tab (SPEC §2), also shown after a failed load (SPEC §8). */
export const ANALYTICS_EMPTY_TEXT = 'No analytics data available. Click "Refresh Data" to load.';

export const AGING_LABELS: Record<AgingBucket, string> = {
  '0-7_days': '0–7 days',
  '8-30_days': '8–30 days',
  '31-60_days': '31–60 days',
  '60+_days': '60+ days',
};

/** Dollars for the admin figures: cents only when there are some ($1,234 or $836.36). */
export function formatMoney(amount: number): string {
  const cents = Math.round(amount * 100);
  const whole = cents % 100 === 0;
  return `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  })}`;
}

/** A percentage with exactly one decimal (27.3%, 0.0%). */
export function formatRate(percent: number): string {
  return `${percent.toFixed(1)}%`;
}

/** Short money for chart axes: $0.2, $950, $1.5k, $12k, $2.5M. */
export function formatAxisMoney(amount: number): string {
  const short = (value: number, unit: string) => `$${Number(value.toFixed(value < 10 ? 1 : 0))}${unit}`;
  if (amount >= 1_000_000) return short(amount / 1_000_000, 'M');
  if (amount >= 1_000) return short(amount / 1_000, 'k');
  return `$${Number(amount.toFixed(amount < 10 ? 2 : 0))}`;
}

/** The transaction status badge colour. */
export function transactionBadge(status: TransactionStatus): string {
  return status === 'completed' ? 'badge-green' : status === 'failed' ? 'badge-red' : 'badge-gray';
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above the largest value: the chart's top line (1 for an all-zero chart). */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value - 1e-9) ?? 10;
  return step * power;
}

/** The top of a money chart's axis: niceMax of its values, or $100 when all are 0 (a readable empty axis). */
export function chartMax(values: number[]): number {
  const largest = Math.max(0, ...values);
  return largest > 0 ? niceMax(largest) : 100;
}

/** Axis values from 0 to a niceMax, on round steps: 5 of a top starting with 1 or 5, 4 of one starting with 2. */
export function axisTicks(max: number): number[] {
  const leading = Math.round(max / 10 ** Math.floor(Math.log10(max)));
  const count = leading === 2 ? 4 : 5;
  return Array.from({ length: count + 1 }, (_, i) => Number(((max * i) / count).toPrecision(12)));
}

export interface Plot {
  width: number;
  height: number;
  /** Space left for the y axis labels and below for the x labels. */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

/** The y coordinate of a value in a plot whose axis runs from 0 to max. */
export function yOf(value: number, max: number, plot: Plot): number {
  const inner = plot.height - plot.top - plot.bottom;
  return plot.top + inner - (Math.max(0, value) / max) * inner;
}

/** The points of a line over the plot's width, first value at the left edge, last at the right. */
export function linePoints(values: number[], max: number, plot: Plot): { x: number; y: number }[] {
  const inner = plot.width - plot.left - plot.right;
  const step = values.length > 1 ? inner / (values.length - 1) : 0;
  return values.map((value, i) => ({ x: plot.left + (values.length > 1 ? i * step : inner / 2), y: yOf(value, max, plot) }));
}

/** Equal bars with gaps across the plot's width, each as tall as its value. */
export function bars(values: number[], max: number, plot: Plot, gap = 0.3): { x: number; y: number; width: number; height: number }[] {
  const slot = (plot.width - plot.left - plot.right) / Math.max(1, values.length);
  const width = slot * (1 - gap);
  const base = yOf(0, max, plot);
  return values.map((value, i) => {
    const y = yOf(value, max, plot);
    return { x: plot.left + i * slot + (slot - width) / 2, y, width, height: base - y };
  });
}

/** A short "Jun 15" label of a YYYY-MM-DD day, read as UTC (the server's days). */
export function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** One sentence for screen readers: the revenue chart's total and its best day. */
export function revenueSummary(points: InvoiceAnalytics['revenue_over_time']): string {
  const total = points.reduce((sum, p) => sum + p.revenue, 0);
  if (total === 0) return 'No paid revenue in the last 30 days.';
  const best = points.reduce((a, b) => (b.revenue > a.revenue ? b : a));
  return `${formatMoney(total)} paid in the last 30 days; the best day was ${dayLabel(best.date)} with ${formatMoney(best.revenue)}.`;
}

/** The invoice status behind a transaction's group and its latest card payment, when they add something. */
export function transactionDetail(row: Pick<AdminTransactionDto, 'status' | 'invoice_status' | 'payment_status'>): string {
  const parts = [];
  const invoice = row.invoice_status.replace(/_/g, ' ');
  if (invoice !== row.status && !(row.status === 'completed' && invoice === 'paid')) parts.push(`Invoice ${invoice}`);
  if (row.payment_status) parts.push(`Payment ${row.payment_status.replace(/_/g, ' ')}`);
  return parts.join(' · ');
}
