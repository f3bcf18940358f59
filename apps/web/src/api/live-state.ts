import type { ListingDto } from '@market/contracts';
import type { ListingStatus } from '@market/domain';
import { listingsApi } from './listings.api';

/** Whether two ids name the same listing: UUIDs in any case (a listing URL may be typed in upper case). */
export function sameListing(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The listing fields live news may move: public ones only, never a reserve amount (D7). */
export type LivePatch = Partial<Pick<ListingDto, 'current_bid' | 'bid_count' | 'price_version' | 'reserve_met' | 'expires_at' | 'status'>>;

/*
 * Live news runs ahead of the API: the listings service learns of bids through an event consumer, so a listing
 * reloaded just after a new_bid (or after our own bid) may still be the one from before it. The newest live state per
 * listing is kept here and laid over every listing answer that is behind it, so the price, bid count, minimum bid,
 * end and status shown only move forward. Each part is forgotten once an answer has caught up with it.
 */

/** How long a live status other than sold outranks the API: longer than any consumer lag, short enough to heal a missed change. */
export const LIVE_STATUS_HOLD_MS = 30_000;

interface LiveState {
  bids?: { current_bid: number | null; bid_count: number; price_version?: number; reserve_met?: boolean };
  expires_at?: string;
  status?: { value: ListingStatus; at: number };
}

const liveStates = new Map<string, LiveState>();
const later = (a: string, b: string) => Date.parse(a) > Date.parse(b);
/**
 * How new a price is: its price version (ADR 0038), which grows with every bid and every rejection, so a rejection
 * that lowers the count still counts as newer; the count for news from before versions (it was the version then).
 */
const priceVersion = (state: { bid_count?: number; price_version?: number }) => state.price_version ?? state.bid_count ?? 0;

/** Remembers what a live message or a bid answer says about a listing, keeping only what moves it forward. */
export function rememberLive(listingId: string, patch: LivePatch, now = Date.now()): void {
  const key = listingId.toLowerCase();
  const state: LiveState = { ...liveStates.get(key) };
  const { current_bid, bid_count, price_version, reserve_met, expires_at, status } = patch;
  const known = typeof bid_count === 'number' && (typeof current_bid === 'number' || current_bid === null);
  if (known && (!state.bids || priceVersion(patch) > priceVersion(state.bids))) {
    state.bids = {
      current_bid: current_bid ?? null,
      bid_count,
      ...(typeof price_version === 'number' ? { price_version } : {}),
      ...(typeof reserve_met === 'boolean' ? { reserve_met } : {}),
    };
  }
  if (expires_at && (!state.expires_at || later(expires_at, state.expires_at))) state.expires_at = expires_at;
  // Sold is final: no later news about the listing takes it back.
  if (status && state.status?.value !== 'sold') state.status = { value: status, at: now };
  liveStates.set(key, state);
}

/** The fields of `listing` that are behind the newest live state of its listing, with their live values (empty when none). */
export function livePatch(listingId: string, listing: LivePatch, now = Date.now()): LivePatch {
  const state = liveStates.get(listingId.toLowerCase());
  if (!state) return {};
  const patch: LivePatch = {};
  if (state.bids && priceVersion(listing) < priceVersion(state.bids)) Object.assign(patch, state.bids);
  if (state.expires_at && listing.expires_at && later(state.expires_at, listing.expires_at)) patch.expires_at = state.expires_at;
  const status = state.status;
  const holds = status && (status.value === 'sold' || now - status.at < LIVE_STATUS_HOLD_MS);
  if (status && holds && listing.status !== status.value && listing.status !== 'sold') patch.status = status.value;
  return patch;
}

/**
 * A listing answer from the API with the newest live state laid over what it is behind on; forgets each part of that
 * state the answer has caught up with (or that no longer holds).
 */
export function withLiveState<T extends LivePatch>(listingId: string, listing: T, now = Date.now()): T {
  const key = listingId.toLowerCase();
  const state = liveStates.get(key);
  if (!state) return listing;
  const patch = livePatch(listingId, listing, now);
  const kept: LiveState = {};
  if (state.bids && 'bid_count' in patch) kept.bids = state.bids;
  if (state.expires_at && 'expires_at' in patch) kept.expires_at = state.expires_at;
  if (state.status && 'status' in patch) kept.status = state.status;
  if (Object.keys(kept).length > 0) liveStates.set(key, kept);
  else liveStates.delete(key);
  return Object.keys(patch).length > 0 ? { ...listing, ...patch } : listing;
}

/** Forgets every live state: a fresh start (tests). */
export function forgetLiveStates(): void {
  liveStates.clear();
}

// Every listing answer passes through the live state, whoever asked for it: a new_bid or reconnect reload, our own
// bid's invalidation, a retry. The answer is corrected before it is cached, so an older listing never shows.
listingsApi.enhanceEndpoints({
  endpoints: {
    listing: (definition) => {
      const own = definition.transformResponse;
      definition.transformResponse = async (response, meta, id) => withLiveState(id, (own ? await own(response, meta, id) : response) as ListingDto);
    },
  },
});
