/** Monthly traffic as the product shows it: 950, 12.5K, 3.2M (SPEC §9). */
export function formatTraffic(visits: number): string {
  const compact = (value: number, suffix: string) => `${Number(value.toFixed(1))}${suffix}`;
  if (visits >= 1_000_000) return compact(visits / 1_000_000, 'M');
  if (visits >= 1_000) return compact(visits / 1_000, 'K');
  return String(Math.max(0, Math.trunc(visits)));
}

/** Business age in years and months: "2 years 3 months", "1 year", "5 months" (SPEC §3). */
export function formatBusinessAge(months: number): string {
  const total = Math.max(0, Math.trunc(months));
  const years = Math.floor(total / 12);
  const rest = total % 12;
  const parts: string[] = [];
  if (years > 0) parts.push(`${years} year${years === 1 ? '' : 's'}`);
  if (rest > 0 || years === 0) parts.push(`${rest} month${rest === 1 ? '' : 's'}`);
  return parts.join(' ');
}

/** Monthly profit shown on the listing (D3): revenue less expenses, in whole dollars. */
export function monthlyProfit(monthlyRevenue: number, monthlyExpenses: number): number {
  return monthlyRevenue - monthlyExpenses;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What the listing page says about the time left (SPEC §2 'days remaining while positive'): whole days rounded up,
 * and in the final day hours, then minutes, so a soft-closing auction never reads '1 day remaining'. Null once ended.
 */
export function timeRemainingLabel(expiresAt: Date | string | null, now: Date = new Date()): string | null {
  if (expiresAt === null) return null;
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (left <= 0) return null;
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} remaining`;
  if (left >= DAY_MS) return plural(Math.ceil(left / DAY_MS), 'day');
  if (left >= 3600_000) return plural(Math.ceil(left / 3600_000), 'hour');
  return plural(Math.ceil(left / 60_000), 'minute');
}

/** Auction durations a seller may choose, in days (SPEC §5); 7 is the default. */
export const DURATION_DAYS = [3, 7, 14, 30] as const;
export const DEFAULT_DURATION_DAYS = 7;
export const MAX_SCREENSHOTS = 5;
