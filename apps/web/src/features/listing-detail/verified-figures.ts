import type { VerifiedRevenueDto, VerifiedTrafficDto } from '@market/contracts';
import { formatCents } from '../../lib/money';

/** Which verified figure: revenue (Stripe) or traffic (Google Analytics 4), D24. */
export type FigureKind = 'revenue' | 'traffic';

/** The badge a current figure earns: the provider's name says what was read (ADR 0084). */
export const VERIFIED_BADGE_TEXT: Record<FigureKind, string> = {
  revenue: 'Revenue verified by Stripe',
  traffic: 'Traffic verified by Google Analytics',
};

/** A count of users, sessions or visits in full, grouped: 45210 → "45,210". */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

const monthDate = (month: string): Date | null => {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12) return null;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
};

/** A `YYYY-MM` month (UTC) as "Jan" (short) or "January 2026" (long); anything else as given. */
export function monthLabel(month: string, form: 'short' | 'long' = 'long'): string {
  const date = monthDate(month);
  if (!date) return month;
  const options: Intl.DateTimeFormatOptions = form === 'short' ? { month: 'short' } : { month: 'long', year: 'numeric' };
  return date.toLocaleDateString('en-US', { ...options, timeZone: 'UTC' });
}

/** The day a snapshot was taken, in UTC so the server's page and the browser's agree: "December 7, 2026". */
export function formatVerifiedDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** What a figure's state lets the page say: the badge only when current, otherwise when it was last verified. */
export interface FigureStatus {
  /** The "verified" badge's text; null unless the figure is current (a stale badge must never look current). */
  badge: string | null;
  /** When the shown snapshot was taken, in words. */
  note: string;
}

/** The badge and date line of a verified figure by its state (ADR 0084): only `current` earns the badge. */
export function figureStatus(kind: FigureKind, figure: Pick<VerifiedRevenueDto, 'state' | 'verified_at'>): FigureStatus {
  const day = formatVerifiedDate(figure.verified_at);
  switch (figure.state) {
    case 'current':
      return { badge: VERIFIED_BADGE_TEXT[kind], note: `Verified on ${day}` };
    case 'stale':
      return { badge: null, note: `Last verified on ${day}` };
    case 'revoked':
      return { badge: null, note: `Last verified on ${day} (no longer connected)` };
  }
}

/** The buyer's warning when the claimed revenue is more than 15% above the verified one (D24); null otherwise. */
export function revenueClaimWarning(figure: Pick<VerifiedRevenueDto, 'inflated' | 'claimed_cents' | 'monthly_average_cents'>): string | null {
  if (!figure.inflated) return null;
  return `Seller claims ${formatCents(figure.claimed_cents)}/mo; verified ${formatCents(figure.monthly_average_cents ?? 0)}/mo`;
}

/** The buyer's warning when the claimed traffic is more than 15% above the verified sessions (D24); null otherwise. */
export function trafficClaimWarning(figure: Pick<VerifiedTrafficDto, 'inflated' | 'claimed' | 'monthly_average_sessions'>): string | null {
  if (!figure.inflated) return null;
  return `Seller claims ${formatCount(figure.claimed)} visits/mo; verified ${formatCount(figure.monthly_average_sessions ?? 0)} sessions/mo`;
}

/** True when some shown figure exists at all: the block is left out for a listing with none. */
export function hasVerifiedFigures(verification: { revenue: unknown; traffic: unknown } | undefined): boolean {
  return Boolean(verification && (verification.revenue || verification.traffic));
}

/** The smallest round axis top at or above `value` (1, 2, 2.5 or 5 times a power of ten); 1 for nothing. */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

/** An axis label kept short: 12500 → "12.5K", 1200000 → "1.2M". */
export function compactNumber(value: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

/** A chart's drawing area in SVG units: the whole box and the margins kept for the axis labels. */
export interface Plot {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** One bar, in SVG units. */
export interface BarRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The y of `value` on an axis from 0 to `top`. */
export function yOf(value: number, top: number, plot: Plot): number {
  const inner = plot.height - plot.top - plot.bottom;
  return round1(plot.height - plot.bottom - (Math.max(0, value) / top) * inner);
}

/**
 * Grouped bars, one group per month, one bar per series side by side (bars[series][month]): each month's slot is shared
 * by its series in 70% of its width, the rest is the gap between months. Negative values draw nothing.
 */
export function monthBars(series: readonly (readonly number[])[], top: number, plot: Plot): BarRect[][] {
  const months = Math.max(0, ...series.map((values) => values.length));
  if (months === 0 || series.length === 0) return series.map(() => []);
  const slot = (plot.width - plot.left - plot.right) / months;
  const group = slot * 0.7;
  const width = group / series.length;
  const base = plot.height - plot.bottom;
  return series.map((values, s) =>
    values.map((value, month) => {
      const y = yOf(value, top, plot);
      return { x: round1(plot.left + month * slot + (slot - group) / 2 + s * width), y, width: round1(width), height: round1(base - y) };
    }),
  );
}
