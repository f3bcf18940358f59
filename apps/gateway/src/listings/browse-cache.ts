import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from 'nats';
import type { BrowseListingsQuery } from '@market/contracts';
import { subscribeListingEvents } from './listing-events';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { GATEWAY_NATS } from '../gateway.tokens';

const MAX_ENTRIES = 1000;
// Pages can be large (100 listings with long texts): the cache is bounded by what it holds, not only by count.
const MAX_BYTES = 32 * 1024 * 1024;
// A page nobody asked for in this many lifetimes is dropped rather than served once more.
const MAX_AGE_TTLS = 10;
// How old a last good page may be and still stand in for a slow or failing listings service (ADR 0050).
const STALE_MAX_MS = 10 * 60 * 1000;

interface Entry {
  at: number;
  body: Promise<string>;
  refreshing: boolean;
  bytes: number;
  settled: boolean;
}

interface Good {
  at: number;
  text: string;
}

/**
 * Browse pages are the same for everyone, so each gateway keeps them, serialized, for BROWSE_CACHE_MS. Concurrent
 * identical requests share one trip to the listings service; a page past its time is served once more while a
 * fresh copy loads (nobody waits on a refresh). Any listing event, from any gateway's writes, and this gateway's
 * own writes clear every page at once, so changes are never hidden behind the cache. When the listings service is
 * slow (no page within BROWSE_STALE_AFTER_MS) or failing, the last good copy of the page (at most ten minutes old,
 * kept even through a clear) answers instead, while the fresh load goes on and fills the cache (ADR 0050).
 */
@Injectable()
export class BrowseCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly entries = new Map<string, Entry>();
  private readonly good = new Map<string, Good>();
  private bytes = 0;
  private goodBytes = 0;
  private subscriptions: Subscription[] = [];
  private readonly ttl: number;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_NATS) private readonly nc: NatsConnection,
  ) {
    this.ttl = config.BROWSE_CACHE_MS;
  }

  onApplicationBootstrap() {
    if (this.ttl > 0) this.subscriptions = subscribeListingEvents(this.nc, this.config.EVENTS_PREFIX, () => this.clear(), 'browse cache');
  }

  onApplicationShutdown() {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
  }

  /** The JSON body of the page for a parsed query: from memory when possible, else loaded (failures are never kept). */
  get(query: BrowseListingsQuery, load: () => Promise<string>): Promise<string> {
    if (this.ttl <= 0) return load();
    const key = JSON.stringify(query);
    const entry = this.entries.get(key);
    if (!entry || Date.now() - entry.at >= this.ttl * MAX_AGE_TTLS) return this.orStale(key, this.store(key, load()));
    if (!entry.settled) return this.orStale(key, entry);
    if (Date.now() - entry.at >= this.ttl && !entry.refreshing) {
      entry.refreshing = true;
      const next = load();
      next.then(
        () => {
          if (this.entries.get(key) === entry) this.store(key, next);
        },
        () => {
          if (this.entries.get(key) === entry) this.entries.delete(key);
        },
      );
    }
    return entry.body;
  }

  /** The entry's page, or the last good one when that takes longer than BROWSE_STALE_AFTER_MS or fails. */
  private orStale(key: string, entry: Entry): Promise<string> {
    const stale = this.good.get(key);
    if (!stale || Date.now() - stale.at > STALE_MAX_MS) return entry.body;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(stale.text), this.config.BROWSE_STALE_AFTER_MS);
      entry.body.then(
        (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        () => {
          clearTimeout(timer);
          resolve(stale.text);
        },
      );
    });
  }

  /** Keeps a loaded page as the stand-in for its query, within the same bounds as the cache. */
  private remember(key: string, text: string): void {
    const old = this.good.get(key);
    if (old) this.goodBytes -= old.text.length;
    this.good.delete(key);
    this.good.set(key, { at: Date.now(), text });
    this.goodBytes += text.length;
    while (this.good.size > MAX_ENTRIES || (this.goodBytes > MAX_BYTES && this.good.size > 1)) {
      const [oldest, page] = this.good.entries().next().value as [string, Good];
      this.goodBytes -= page.text.length;
      this.good.delete(oldest);
    }
  }

  /** Forgets every page (a listing changed). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private store(key: string, body: Promise<string>): Entry {
    const entry: Entry = { at: Date.now(), body, refreshing: false, bytes: 0, settled: false };
    this.remove(key);
    this.entries.set(key, entry);
    body.then(
      (text) => {
        entry.settled = true;
        this.remember(key, text);
        if (this.entries.get(key) !== entry) return;
        entry.bytes = text.length;
        this.bytes += entry.bytes;
        this.trim();
      },
      () => {
        if (this.entries.get(key) === entry) this.remove(key);
      },
    );
    this.trim();
    return entry;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  // Oldest first: Map keeps insertion order and store() re-inserts refreshed pages at the end.
  private trim(): void {
    while (this.entries.size > MAX_ENTRIES || (this.bytes > MAX_BYTES && this.entries.size > 1)) {
      this.remove(this.entries.keys().next().value as string);
    }
  }
}
