import { liveListingPath, type ListingDto, type LiveEventType, type LiveMessage } from '@market/contracts';
import { LISTING_STATUSES, type ListingStatus } from '@market/domain';
import { listingsApi } from '../../api/listings.api';

const LIVE_EVENT_TYPES: ReadonlySet<string> = new Set<LiveEventType>(['new_bid', 'auction_extended', 'listing_sold', 'listing_updated']);

/** The listing's live feed on the page's own origin: wss: under https, ws: otherwise (D21). */
export function liveListingUrl(listingId: string, location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${liveListingPath(encodeURIComponent(listingId))}`;
}

/** One frame as a known `{type, data}` message; null for anything else (other types, bad JSON, binary). */
export function parseLiveMessage(raw: unknown): LiveMessage | null {
  if (typeof raw !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  const frame = parsed as { type?: unknown; data?: unknown } | null;
  if (!frame || typeof frame !== 'object' || typeof frame.type !== 'string' || !LIVE_EVENT_TYPES.has(frame.type)) return null;
  if (!frame.data || typeof frame.data !== 'object') return null;
  return frame as LiveMessage;
}

/** Whether two ids name the same listing: UUIDs in any case (a listing URL may be typed in upper case). */
export function sameListing(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The listing fields live news may move: public ones only, never a reserve amount (D7). */
export type LivePatch = Partial<Pick<ListingDto, 'current_bid' | 'bid_count' | 'reserve_met' | 'expires_at' | 'status'>>;

const isListingStatus = (status: string): status is ListingStatus => (LISTING_STATUSES as readonly string[]).includes(status);

/** What the page does about one message: fields to show at once, what to reload, and a soft-close notice. */
export interface LiveReaction {
  /** Only public fields the message carries: never a reserve amount (D7), whatever a frame might hold. */
  patch: LivePatch;
  reload: Array<'Listing' | 'Bids'>;
  extendedUntil?: string;
}

/**
 * Maps a message about the viewed listing to the page's reaction (SPEC §2: new_bid reloads the listing). Messages
 * about another listing are ignored.
 */
export function liveReaction(listingId: string, message: LiveMessage): LiveReaction | null {
  if (typeof message.data.listing_id !== 'string' || !sameListing(message.data.listing_id, listingId)) return null;
  switch (message.type) {
    case 'new_bid': {
      const { current_bid, bid_count, reserve_met, expires_at } = message.data;
      return { patch: { current_bid, bid_count, reserve_met, expires_at }, reload: ['Listing', 'Bids'] };
    }
    case 'auction_extended':
      return { patch: { expires_at: message.data.expires_at }, reload: ['Listing'], extendedUntil: message.data.expires_at };
    case 'listing_sold':
      return { patch: { status: 'sold' }, reload: ['Listing', 'Bids'] };
    case 'listing_updated': {
      // 'deleted' is no listing status: the reload finds the listing gone.
      const { status } = message.data;
      return { patch: isListingStatus(status) ? { status } : {}, reload: ['Listing'] };
    }
    default:
      return null;
  }
}

/*
 * Live news runs ahead of the API: the listings service learns of bids through an event consumer, so a listing
 * reloaded just after a new_bid (or after our own bid) may still be the one from before it. The newest live state per
 * listing is kept here and laid over every listing answer that is behind it, so the price, bid count, minimum bid,
 * end and status shown only move forward. Each part is forgotten once an answer has caught up with it.
 */

/** How long a live status other than sold outranks the API: longer than any consumer lag, short enough to heal a missed change. */
export const LIVE_STATUS_HOLD_MS = 30_000;

interface LiveState {
  bids?: { current_bid: number; bid_count: number; reserve_met?: boolean };
  expires_at?: string;
  status?: { value: ListingStatus; at: number };
}

const liveStates = new Map<string, LiveState>();
const later = (a: string, b: string) => Date.parse(a) > Date.parse(b);

/** Remembers what a live message or a bid answer says about a listing, keeping only what moves it forward. */
export function rememberLive(listingId: string, patch: LivePatch, now = Date.now()): void {
  const key = listingId.toLowerCase();
  const state: LiveState = { ...liveStates.get(key) };
  const { current_bid, bid_count, reserve_met, expires_at, status } = patch;
  if (typeof current_bid === 'number' && typeof bid_count === 'number' && bid_count > (state.bids?.bid_count ?? -1)) {
    state.bids = { current_bid, bid_count, ...(typeof reserve_met === 'boolean' ? { reserve_met } : {}) };
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
  if (state.bids && (listing.bid_count ?? 0) < state.bids.bid_count) Object.assign(patch, state.bids);
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

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
/** A connection that stayed open this long counts as healthy: the next drop retries quickly again. */
const STABLE_MS = 10_000;

/** Wait before reconnect number `attempt` (0-based): 1 s doubling up to 30 s, between half and all of it (jitter). */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The part of a WebSocket the connection uses (tests pass a fake). */
export interface LiveSocket {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(code?: number, reason?: string): void;
}

export interface LiveConnectionOptions {
  url: string;
  onMessage: (message: LiveMessage) => void;
  /** Called after a reconnect: messages may have been missed meanwhile, so the page reloads what it shows. */
  onReconnect?: () => void;
  createSocket?: (url: string) => LiveSocket;
  random?: () => number;
}

/**
 * Keeps one listing's live feed open: reconnects with backoff whenever it drops, until close(). Closing stops any
 * pending retry and closes the socket without reconnecting.
 */
export function openLiveConnection(options: LiveConnectionOptions): { close: () => void } {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as LiveSocket);
  let socket: LiveSocket | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  let openedAt: number | null = null;
  let everOpened = false;
  let closed = false;

  const scheduleRetry = () => {
    if (closed || retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect();
    }, reconnectDelay(attempt, options.random));
    attempt += 1;
  };

  const connect = () => {
    if (closed) return;
    let current: LiveSocket;
    try {
      current = createSocket(options.url);
    } catch {
      scheduleRetry();
      return;
    }
    socket = current;
    current.onopen = () => {
      if (closed || socket !== current) return;
      openedAt = Date.now();
      if (everOpened) options.onReconnect?.();
      everOpened = true;
    };
    current.onmessage = (event) => {
      if (closed || socket !== current) return;
      const message = parseLiveMessage(event.data);
      if (message) options.onMessage(message);
    };
    // A failed socket also fires close, which is where the retry is planned.
    current.onerror = () => undefined;
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      if (openedAt !== null && Date.now() - openedAt >= STABLE_MS) attempt = 0;
      openedAt = null;
      scheduleRetry();
    };
  };

  connect();
  return {
    close: () => {
      closed = true;
      if (retryTimer !== null) clearTimeout(retryTimer);
      retryTimer = null;
      const last = socket;
      socket = null;
      last?.close(1000, 'Left the listing');
    },
  };
}
