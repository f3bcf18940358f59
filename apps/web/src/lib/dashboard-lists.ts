import type { ListingDto } from '@market/contracts';

/**
 * Whether a dashboard list's load failed in a way that empties it (SPEC §8): a 401 keeps the rows already loaded
 * (the session handling takes over), any other failure does not, so stale data is never shown as current.
 */
export function listLoadFailed(error: unknown): boolean {
  return Boolean(error) && (error as { status?: unknown }).status !== 401;
}

/** The rows a dashboard list shows (SPEC §8): the loaded ones, or none after a failure other than a 401. */
export function dashboardRows<T>(rows: readonly T[] | undefined, error: unknown): T[] {
  if (listLoadFailed(error)) return [];
  return rows ? [...rows] : [];
}

/** The newest `count` listings, newest first (the Overview's recent listings, SPEC §9: 3). */
export function newestListings<T extends Pick<ListingDto, 'created_at'>>(listings: readonly T[], count: number): T[] {
  return [...listings].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)).slice(0, count);
}

/** The owner's one-click status change for a listing, if any: pause an active one, activate a paused one (D16). */
export function ownerToggle(status: ListingDto['status']): { label: 'Pause' | 'Activate'; status: 'paused' | 'active' } | null {
  if (status === 'active') return { label: 'Pause', status: 'paused' };
  if (status === 'paused') return { label: 'Activate', status: 'active' };
  return null;
}
