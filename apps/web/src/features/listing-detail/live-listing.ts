import { liveListingPath, type LiveEventType, type LiveMessage } from '@market/contracts';
import { LISTING_STATUSES, type ListingStatus } from '@market/domain';
import { sameListing, type LivePatch } from '../../api/live-state';

const LIVE_EVENT_TYPES: ReadonlySet<string> = new Set<LiveEventType>(['new_bid', 'bids_repriced', 'auction_extended', 'listing_sold', 'listing_updated']);

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
      const { current_bid, bid_count, reserve_met, expires_at, price_version } = message.data;
      const version = typeof price_version === 'number' ? { price_version } : {};
      return { patch: { current_bid, bid_count, reserve_met, expires_at, ...version }, reload: ['Listing', 'Bids'] };
    }
    case 'bids_repriced': {
      // Bids left the auction (a rejection, a removed bidder): the price and count may go down, as the version says (ADR 0038).
      const { current_bid, bid_count, reserve_met, price_version } = message.data;
      return { patch: { current_bid, bid_count, reserve_met, price_version }, reload: ['Listing', 'Bids'] };
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
