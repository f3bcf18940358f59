import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from 'nats';
import { RPC, SITEMAP_SLICE_MAX } from '@market/contracts';
import { notFound } from '@market/server-kit';
import { GATEWAY_CONFIG, publicOrigin, type GatewayConfig } from '../gateway.config';
import { GATEWAY_NATS } from '../gateway.tokens';
import { GatewayRpc } from '../rpc/rpc-client';
import { subscribeListingEvents } from '../listings/listing-events';
import { listingSitemapCount, listingsSitemapXml, pagesSitemapXml, sitemapIndexXml, SITEMAP_MAX_URLS } from './site-files';

// A sitemap no listing event has touched is rebuilt after this long anyway (a lost event costs at most an hour).
const MAX_AGE_MS = 60 * 60 * 1000;

/**
 * The sitemaps (ADR 0071): an index, the public pages, and the active listings in files of at most 50,000 URLs, read
 * from listings-service in slices. Built once and kept until a listing event (or an hour) drops them, so crawlers
 * cost listings-service one read per change; concurrent requests for one file share its build.
 */
@Injectable()
export class Sitemaps implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly built = new Map<string, { at: number; value: Promise<unknown> }>();
  private subscriptions: Subscription[] = [];
  private readonly origin: string;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_NATS) private readonly nc: NatsConnection,
    private readonly rpc: GatewayRpc,
  ) {
    this.origin = publicOrigin(config);
  }

  onApplicationBootstrap() {
    this.subscriptions = subscribeListingEvents(this.nc, this.config.EVENTS_PREFIX, () => this.built.clear(), 'sitemap');
  }

  onApplicationShutdown() {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
  }

  /** The sitemap index. */
  index(): Promise<string> {
    return this.cached('index', async () => sitemapIndexXml(this.origin, await this.activeTotal()));
  }

  /** The public pages' sitemap. */
  pages(): Promise<string> {
    return this.cached('pages', async () => pagesSitemapXml(this.origin));
  }

  /** Listings file `n` (from 1); 404 past the last one. */
  async listings(n: number): Promise<string> {
    // Checked against the kept count first: a file past the last costs listings-service nothing, however often asked.
    const total = await this.activeTotal();
    if (n > listingSitemapCount(total)) throw notFound('No such sitemap');
    return this.cached(`listings-${n}`, async () => {
      const start = (n - 1) * SITEMAP_MAX_URLS;
      const listings: { id: string; updated_at: string }[] = [];
      // Slices of at most SITEMAP_SLICE_MAX keep each reply far below NATS's payload limit; a short one is the end.
      for (let want = Math.min(SITEMAP_SLICE_MAX, SITEMAP_MAX_URLS); want > 0; want = Math.min(SITEMAP_SLICE_MAX, SITEMAP_MAX_URLS - listings.length)) {
        const slice = (await this.slice(start + listings.length, want)).listings;
        listings.push(...slice);
        if (slice.length < want) break;
      }
      return listingsSitemapXml(this.origin, listings);
    });
  }

  /** How many listings are active, kept like the files. */
  private activeTotal(): Promise<number> {
    return this.cached('total', async () => (await this.rpc.call(RPC.listings.sitemap, { offset: 0, limit: 1, with_total: true }, null)).total ?? 0);
  }

  private slice(offset: number, limit: number) {
    return this.rpc.call(RPC.listings.sitemap, { offset, limit }, null);
  }

  /** What was built since the last listing event (and within the hour); a failed build is not kept. */
  private cached<T>(key: string, build: () => Promise<T>): Promise<T> {
    const kept = this.built.get(key);
    if (kept && Date.now() - kept.at < MAX_AGE_MS) return kept.value as Promise<T>;
    const entry = { at: Date.now(), value: build() };
    this.built.set(key, entry);
    entry.value.catch(() => {
      if (this.built.get(key) === entry) this.built.delete(key);
    });
    return entry.value;
  }
}
