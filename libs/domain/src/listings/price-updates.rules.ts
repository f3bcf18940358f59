/** What one price event (bid.placed) says about a listing: its price and count as of a price version (ADR 0038). */
export interface PriceUpdate {
  listing_id: string;
  current_bid: number;
  bid_count: number;
  expires_at: string | null;
  /** Absent on events from before price versions, whose bid count was their version. */
  price_version?: number;
}

/** An update's price version: its own, or its bid count for an event written before versions existed. */
export function priceVersionOf(update: Pick<PriceUpdate, 'bid_count' | 'price_version'>): number {
  return update.price_version ?? update.bid_count;
}

/**
 * The one update per listing that applying a batch of price events in any order comes to (ADR 0057): the highest
 * price version wins (the first of equal versions: a redelivery says the same), and the end is the latest any of the
 * batch's events named, since the end only ever moves later. Listings come out ordered by id, the order their rows
 * are locked in, so two batches that share listings never wait on each other in a cycle.
 */
export function latestPricePerListing<T extends PriceUpdate>(updates: readonly T[]): Array<T & { price_version: number }> {
  const latest = new Map<string, T & { price_version: number }>();
  for (const update of updates) {
    const version = priceVersionOf(update);
    const kept = latest.get(update.listing_id);
    const expires = laterEnd(kept?.expires_at ?? null, update.expires_at);
    if (!kept || version > kept.price_version) latest.set(update.listing_id, { ...update, price_version: version, expires_at: expires });
    else kept.expires_at = expires;
  }
  return [...latest.values()].sort((a, b) => (a.listing_id < b.listing_id ? -1 : a.listing_id > b.listing_id ? 1 : 0));
}

function laterEnd(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}
