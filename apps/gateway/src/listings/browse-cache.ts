import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from 'nats';
import type { BrowseListingsQuery, BrowseListingsResponse } from '@market/contracts';
import { eventSubject } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { GATEWAY_NATS } from '../gateway.tokens';

const MAX_ENTRIES = 1000;

/**
 * Browse pages are the same for everyone, so each gateway keeps them for BROWSE_CACHE_MS and answers repeats from
 * memory; any listing event (from any gateway's writes) and this gateway's own writes clear it at once.
 * Concurrent identical requests share one trip to the listings service.
 */
@Injectable()
export class BrowseCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly entries = new Map<string, { at: number; value: Promise<BrowseListingsResponse> }>();
  private subscription: Subscription | null = null;
  private readonly ttl: number;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_NATS) private readonly nc: NatsConnection,
  ) {
    this.ttl = config.BROWSE_CACHE_MS;
  }

  onApplicationBootstrap() {
    if (this.ttl > 0) this.subscription = this.nc.subscribe(eventSubject(this.config.EVENTS_PREFIX, 'listing.>'), { callback: () => this.clear() });
  }

  onApplicationShutdown() {
    this.subscription?.unsubscribe();
  }

  /** The page for a parsed query: from memory while fresh, else loaded (failures are never kept). */
  get(query: BrowseListingsQuery, load: () => Promise<BrowseListingsResponse>): Promise<BrowseListingsResponse> {
    if (this.ttl <= 0) return load();
    const key = JSON.stringify(query);
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttl) return hit.value;
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { at: now, value });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  /** Forgets every page (a listing changed). */
  clear(): void {
    this.entries.clear();
  }
}
