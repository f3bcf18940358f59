/** A review's or a window's day as people read it: "12 Mar 2026" (the same on the server and in the browser: UTC). */
export function reviewDay(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** When an account was opened, as a seller page says it: "March 2025". */
export function memberSince(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The name a person goes by on a review: their name, else their username. */
export function displayName(person: { username: string; name: string | null }): string {
  return person.name?.trim() || person.username;
}

/** "1 review", "12 reviews". */
export const reviewCountText = (count: number) => `${count} ${count === 1 ? 'review' : 'reviews'}`;

/** A seller's public page (ADR 0083), page 1 unless said; the username is encoded as one path segment. */
export function sellerPagePath(username: string, page = 1): string {
  return `/seller/${encodeURIComponent(username)}${page > 1 ? `?page=${page}` : ''}`;
}
