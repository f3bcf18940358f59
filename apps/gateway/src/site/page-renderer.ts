import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Msg, NatsConnection, Subscription } from 'nats';
import type { BrowseView } from '@market/contracts';
import { counter, eventSubject, histogram } from '@market/server-kit';
import { GATEWAY_CONFIG, publicOrigin, type GatewayConfig } from '../gateway.config';
import { GATEWAY_NATS } from '../gateway.tokens';
import { listingOfEvent, subscribeListingEvents } from '../listings/listing-events';

/** A page the web app's server bundle rendered: the whole document, or where to send the visitor. */
export type RenderedPage = { kind: 'page'; status: number; html: string } | { kind: 'redirect'; status: number; location: string };

/** What apps/web's server bundle (src/entry-server.tsx) exports. */
interface ServerBundle {
  configureRenderer(options: { apiBase: string; webDist: string }): void;
  rendersOnServer(path: string): boolean;
  renderPage(request: { path: string; origin: string; signal: AbortSignal; prefs: PagePrefs }): Promise<RenderedPage>;
}

/** What a visitor chose that a page shows (their browse view, from its cookie): part of what a kept page is kept as. */
export interface PagePrefs {
  browseView: BrowseView;
}

const DEFAULT_PREFS: PagePrefs = { browseView: 'grid' };
// A kept page's key: its path, and the prefs when they differ from the defaults (so most pages are kept once).
const PREFS_MARK = '\u0000';
const keyOf = (path: string, prefs: PagePrefs) => (prefs.browseView === 'list' ? `${path}${PREFS_MARK}list` : path);
const pathOfKey = (key: string) => key.split(PREFS_MARK)[0];

// A bid moves a listing page's price without a listing event: these (the live feed's) drop the kept pages too.
const PRICE_EVENTS = ['bid.placed', 'bid.accepted', 'auction.repriced', 'auction.closed'] as const;

// Pages kept at once: browse has a page per query, so the memory they take is bounded, not the time alone.
const MAX_KEPT_PAGES = 500;

/** True for a seller's public page (ADR 0083), whatever its seller and page of reviews. */
export function isSellerPage(path: string): boolean {
  return path.split(/[?#]/)[0].startsWith('/seller/');
}

/**
 * True when the page at `path` (query included) may show the listing: its own page, the home page, browse, or a
 * seller's page (its live listings; an event does not say whose listing it is, so every seller page counts).
 */
export function showsListing(path: string, listingId: string): boolean {
  const pathname = path.split(/[?#]/)[0];
  return pathname === '/' || pathname === '/browse' || pathname.startsWith('/browse/') || pathname === `/listing/${listingId}` || isSellerPage(pathname);
}

/** Why a page fell back to the browser's shell, as counted. */
function fallbackReason(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  if (name === 'PageDataUnavailable') return 'data';
  return 'error';
}

/**
 * Renders the public pages on the server with the web app's own bundle (ADR 0072). The bundle asks the API through
 * this gateway's own HTTP port, as an anonymous visitor. A rendered page is kept for PAGE_CACHE_MS and dropped on a
 * listing event or bid that may change it (showsListing); concurrent requests for one page share its render. A page that
 * cannot be rendered in PAGE_RENDER_TIMEOUT_MS, or whose data is unavailable, is null: the caller serves the browser's
 * shell, and the fallback is logged and counted, never a 5xx.
 */
@Injectable()
export class PageRenderer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PageRenderer');
  private bundle: ServerBundle | null = null;
  private configured = false;
  private rendering = 0;
  private readonly kept = new Map<string, { at: number; page: Promise<RenderedPage> }>();
  private subscriptions: Subscription[] = [];
  private readonly origin: string;
  private readonly renderSeconds = histogram({
    name: 'market_page_render_seconds',
    help: 'Time to answer a server-rendered public page, by outcome (rendered, kept, fallback)',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  private readonly fallbacks = counter({
    name: 'market_page_render_fallbacks_total',
    help: "Public pages served as the browser's shell because the server could not render them, by reason",
    labelNames: ['reason'] as const,
  });

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_NATS) private readonly nc: NatsConnection,
    private readonly http: HttpAdapterHost,
  ) {
    this.origin = publicOrigin(config);
  }

  onApplicationBootstrap() {
    if (this.config.WEB_RENDERING === 'server') this.bundle = this.load();
    // A bid storm sends many events: one is read only when there are kept pages to drop.
    const drop = (msg: Msg | undefined) => {
      if (this.kept.size > 0) this.drop(listingOfEvent(msg));
    };
    this.subscriptions = [
      ...subscribeListingEvents(this.nc, this.config.EVENTS_PREFIX, drop, 'page renderer'),
      ...PRICE_EVENTS.map((name) => this.nc.subscribe(eventSubject(this.config.EVENTS_PREFIX, name), { callback: (_error, msg) => drop(msg) })),
    ];
  }

  onApplicationShutdown() {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
  }

  /**
   * Drops the kept pages a listing's change can alter: its own page, the home page, every browse page and every seller
   * page; the help, legal and other listings' pages stay. An event that names no listing drops them all.
   */
  private drop(listingId: string | null): void {
    if (listingId === null) return this.kept.clear();
    for (const key of [...this.kept.keys()]) if (showsListing(pathOfKey(key), listingId)) this.kept.delete(key);
  }

  /**
   * Drops the kept seller pages (ADR 0083): a review written, replied to or hidden changes a seller's rating and
   * reviews, which no listing event announces. Without this call such a page is at most PAGE_CACHE_MS old.
   */
  dropSellerPages(): void {
    for (const key of [...this.kept.keys()]) if (isSellerPage(pathOfKey(key))) this.kept.delete(key);
  }

  /** Drops the kept pages that show listing `listingId` (a change no listing event announces, like its verified figures). */
  dropListingPages(listingId: string): void {
    this.drop(listingId);
  }

  /** True when `path` is a public page this gateway renders. */
  rendersOnServer(path: string): boolean {
    return this.bundle?.rendersOnServer(path) ?? false;
  }

  /**
   * The page for `path` (with its query) as `prefs` show it, rendered or kept; null means: serve the browser's shell.
   * Visitors asking for one page at once share its render, which only its time budget ends: none of them leaving does.
   */
  async page(path: string, prefs: PagePrefs = DEFAULT_PREFS): Promise<RenderedPage | null> {
    const bundle = this.bundle;
    if (!bundle) return null;
    if (!this.configured && !this.configure(bundle)) return null;
    const started = performance.now();
    const key = keyOf(path, prefs);
    const kept = this.kept.get(key);
    const fresh = kept && Date.now() - kept.at < this.config.PAGE_CACHE_MS;
    if (fresh) {
      // Used again: it moves to the end, so the pages dropped first for room are the ones no one asked for lately.
      this.kept.delete(key);
      this.kept.set(key, kept);
    } else if (this.rendering >= this.config.PAGE_RENDER_CONCURRENCY) {
      // Every render slot is taken (a burst of new addresses, a slow API): the shell costs nothing to send.
      this.fallbacks.inc({ reason: 'busy' });
      this.renderSeconds.observe({ outcome: 'fallback' }, (performance.now() - started) / 1000);
      return null;
    }
    const render = fresh ? kept.page : this.render(bundle, path, prefs);
    if (!fresh && this.config.PAGE_CACHE_MS > 0) this.keep(key, render);
    try {
      const page = await render;
      this.renderSeconds.observe({ outcome: fresh ? 'kept' : 'rendered' }, (performance.now() - started) / 1000);
      return page;
    } catch (error) {
      if (this.kept.get(key)?.page === render) this.kept.delete(key);
      const reason = fallbackReason(error);
      this.fallbacks.inc({ reason });
      this.renderSeconds.observe({ outcome: 'fallback' }, (performance.now() - started) / 1000);
      this.logger.warn(`Rendering ${path} failed (${reason}: ${(error as Error)?.message ?? String(error)}); served the browser's shell`);
      return null;
    }
  }

  /**
   * Points the bundle at this gateway's own API: the address it listens on, read at the first page (after listen;
   * a test's gateway listens on port 0).
   */
  private configure(bundle: ServerBundle): boolean {
    try {
      bundle.configureRenderer({ apiBase: this.ownApiBase(), webDist: this.config.WEB_DIST });
      this.configured = true;
    } catch (error) {
      // The browser build is missing or unreadable: every page is the shell, said once.
      this.bundle = null;
      this.fallbacks.inc({ reason: 'load' });
      this.logger.error(`The server renderer could not read the web build in ${this.config.WEB_DIST} (${(error as Error)?.message ?? String(error)})`);
    }
    return this.configured;
  }

  /** This gateway's own API over loopback: the address and port it listens on (any address: the loopback of its family). */
  private ownApiBase(): string {
    const address = this.http.httpAdapter.getHttpServer().address() as AddressInfo | string | null;
    if (!address || typeof address === 'string') return `http://127.0.0.1:${this.config.PORT}/api`;
    const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
    // An IPv6 literal goes in brackets, its zone id (fe80::1%eth0) percent-encoded.
    return `http://${host.includes(':') ? `[${host.replace('%', '%25')}]` : host}:${address.port}/api`;
  }

  /** One render, holding a render slot until it ends. */
  private async render(bundle: ServerBundle, path: string, prefs: PagePrefs): Promise<RenderedPage> {
    this.rendering += 1;
    try {
      return await bundle.renderPage({ path, origin: this.origin, signal: AbortSignal.timeout(this.config.PAGE_RENDER_TIMEOUT_MS), prefs });
    } finally {
      this.rendering -= 1;
    }
  }

  private keep(key: string, page: Promise<RenderedPage>): void {
    this.kept.delete(key);
    if (this.kept.size >= MAX_KEPT_PAGES) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, { at: Date.now(), page });
  }

  /** Loads the web app's server bundle; without one (not built) every page is the browser's shell, said once. */
  private load(): ServerBundle | null {
    const file = this.config.WEB_SERVER_BUNDLE ?? resolve(this.config.WEB_DIST, '../dist-server/entry-server.js');
    if (!existsSync(file)) {
      this.logger.warn(`No server renderer at ${file} (build apps/web): public pages are rendered in the browser only`);
      return null;
    }
    try {
      // A built file found at run time, not a source import: an ES module, loaded with require (Node >= 20.19) since
      // the gateway is CommonJS (ADR 0072).
      // eslint-disable-next-line @typescript-eslint/no-require-imports, architecture/project-imports
      return require(file) as ServerBundle;
    } catch (error) {
      this.fallbacks.inc({ reason: 'load' });
      this.logger.error(`The server renderer at ${file} did not load (${(error as Error)?.message ?? String(error)}): public pages are rendered in the browser only`);
      return null;
    }
  }
}
