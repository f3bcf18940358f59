import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpAdapterHost } from '@nestjs/core';
import type { NatsConnection } from 'nats';
import { metricsRegistry } from '@market/server-kit';
import type { GatewayConfig } from '../gateway.config';
import { isSellerPage, PageRenderer, showsListing } from './page-renderer';

// A stand-in for apps/web's server bundle: renders what its globals say, and records each render.
const BUNDLE = `
exports.configureRenderer = (options) => { globalThis.__bundle.configured.push(options); };
exports.rendersOnServer = (path) => path.startsWith('/listing/') || path.startsWith('/seller/');
exports.renderPage = async ({ path, origin, signal, prefs }) => {
  const shown = prefs.browseView === 'list' ? path + ' [list]' : path;
  globalThis.__bundle.renders.push(shown);
  const behaviour = globalThis.__bundle.behaviour;
  if (behaviour === 'data') { const e = new Error('listing: 503'); e.name = 'PageDataUnavailable'; throw e; }
  if (behaviour === 'hang') await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  if (behaviour === 'held') await globalThis.__bundle.released;
  return { kind: 'page', status: 200, html: origin + shown + ' #' + globalThis.__bundle.renders.length };
};
`;
type BundleState = { configured: unknown[]; renders: string[]; behaviour: 'ok' | 'data' | 'hang' | 'held'; released?: Promise<void> };
const state = globalThis as unknown as { __bundle: BundleState };

const fallbacks = async (reason: string) => {
  const metric = (await metricsRegistry.getSingleMetric('market_page_render_fallbacks_total')?.get())?.values ?? [];
  return metric.find((value) => value.labels.reason === reason)?.value ?? 0;
};

describe('PageRenderer (ADR 0072)', () => {
  let dir: string;
  type Callback = (error: null, msg: { string(): string }) => void;
  const callbacks: Callback[] = [];
  const nc = { subscribe: (_subject: string, options: { callback: Callback }) => (callbacks.push(options.callback), { unsubscribe: () => undefined }) };
  /** An event as the bus carries it, naming a listing (or, with null, none). */
  const event = (listingId: string | null) => ({ string: () => JSON.stringify({ id: 'e1', name: 'x', payload: listingId === null ? {} : { listing_id: listingId } }) });
  const http = { httpAdapter: { getHttpServer: () => ({ address: () => ({ address: '0.0.0.0', port: 4123 }) }) } };
  const renderer = (overrides: Partial<GatewayConfig> = {}) => {
    const config = {
      WEB_RENDERING: 'server',
      WEB_SERVER_BUNDLE: join(dir, 'entry-server.cjs'),
      WEB_DIST: join(dir, 'dist'),
      PAGE_RENDER_TIMEOUT_MS: 200,
      PAGE_RENDER_CONCURRENCY: 4,
      PAGE_CACHE_MS: 60_000,
      PUBLIC_URL: 'https://market.example',
      PORT: 3000,
      EVENTS_PREFIX: 'test',
      ...overrides,
    } as GatewayConfig;
    const pages = new PageRenderer(config, nc as unknown as NatsConnection, http as unknown as HttpAdapterHost);
    pages.onApplicationBootstrap();
    return pages;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'page-renderer-'));
    writeFileSync(join(dir, 'entry-server.cjs'), BUNDLE);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => {
    state.__bundle = { configured: [], renders: [], behaviour: 'ok' };
    callbacks.length = 0;
  });

  it('points the bundle at the address the gateway listens on, renders with the public origin, and keeps the page', async () => {
    const pages = renderer();
    expect(pages.rendersOnServer('/listing/1')).toBe(true);
    expect(pages.rendersOnServer('/dashboard')).toBe(false);
    const first = await pages.page('/listing/1?ref=mail');
    expect(first).toEqual({ kind: 'page', status: 200, html: 'https://market.example/listing/1?ref=mail #1' });
    expect(state.__bundle.configured).toEqual([{ apiBase: 'http://127.0.0.1:4123/api', webDist: join(dir, 'dist') }]);
    expect(await pages.page('/listing/1?ref=mail')).toBe(first);
    expect(state.__bundle.renders).toHaveLength(1);
  });

  it("drops a listing's own kept page on its listing or bid events, and no other listing's", async () => {
    const pages = renderer();
    await pages.page('/listing/1');
    await pages.page('/listing/2?ref=mail');
    // One subscription per listing event the gateway reads, then the bid events: each drops what its listing changes.
    expect(callbacks.length).toBeGreaterThan(4);
    callbacks[callbacks.length - 1](null, event('1'));
    await pages.page('/listing/1');
    await pages.page('/listing/2?ref=mail');
    callbacks[0](null, event('2'));
    await pages.page('/listing/1');
    await pages.page('/listing/2?ref=mail');
    // An event that names no listing (or cannot be read) drops them all.
    callbacks[0](null, event(null));
    callbacks[1](null, { string: () => 'not json' });
    await pages.page('/listing/1');
    expect(state.__bundle.renders).toEqual(['/listing/1', '/listing/2?ref=mail', '/listing/1', '/listing/2?ref=mail', '/listing/1']);
  });

  it("keeps browse's list and grid pages apart, and drops both on a listing's events", async () => {
    const pages = renderer();
    const list = { browseView: 'list' as const };
    expect(await pages.page('/browse?category=Blog', list)).toMatchObject({ html: 'https://market.example/browse?category=Blog [list] #1' });
    expect(await pages.page('/browse?category=Blog')).toMatchObject({ html: 'https://market.example/browse?category=Blog #2' });
    expect(await pages.page('/browse?category=Blog', list)).toMatchObject({ html: 'https://market.example/browse?category=Blog [list] #1' });
    callbacks[0](null, event('any-listing'));
    await pages.page('/browse?category=Blog', list);
    await pages.page('/browse?category=Blog');
    expect(state.__bundle.renders).toEqual(['/browse?category=Blog [list]', '/browse?category=Blog', '/browse?category=Blog [list]', '/browse?category=Blog']);
  });

  it('renders a page once for the visitors asking for it at once; none of them can end the render for the others', async () => {
    const pages = renderer();
    let release = () => undefined as void;
    state.__bundle.released = new Promise<void>((resolve) => (release = resolve));
    state.__bundle.behaviour = 'held';
    // page() takes no visitor's signal: a visitor who leaves stops waiting, the shared render goes on for the rest.
    const first = pages.page('/listing/7');
    const second = pages.page('/listing/7');
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ status: 200, html: 'https://market.example/listing/7 #1' });
    expect(b).toBe(a);
    expect(state.__bundle.renders).toEqual(['/listing/7']);
  });

  it('reads which pages may show a listing: its own, the home page and browse', () => {
    expect(showsListing('/', 'a')).toBe(true);
    expect(showsListing('/browse?category=Blog', 'a')).toBe(true);
    expect(showsListing('/listing/a?ref=x', 'a')).toBe(true);
    expect(showsListing('/listing/ab', 'a')).toBe(false);
    expect(showsListing('/listing/b', 'a')).toBe(false);
    expect(showsListing('/help-center', 'a')).toBe(false);
    expect(showsListing('/browser', 'a')).toBe(false);
    // A seller page shows that seller's live listings; an event does not say whose listing it is.
    expect(showsListing('/seller/sam?page=2', 'a')).toBe(true);
    expect(showsListing('/sellers', 'a')).toBe(false);
    expect(isSellerPage('/seller/sam')).toBe(true);
    expect(isSellerPage('/listing/1?from=/seller/sam')).toBe(false);
  });

  it("drops kept seller pages on any listing's event and when asked after a review write, and keeps the rest (ADR 0083)", async () => {
    const pages = renderer();
    await pages.page('/seller/sam');
    await pages.page('/seller/sam?page=2');
    await pages.page('/listing/1');
    pages.dropSellerPages();
    await pages.page('/seller/sam');
    await pages.page('/listing/1');
    callbacks[0](null, event('any-listing'));
    await pages.page('/seller/sam?page=2');
    await pages.page('/listing/1');
    expect(state.__bundle.renders).toEqual(['/seller/sam', '/seller/sam?page=2', '/listing/1', '/seller/sam', '/seller/sam?page=2']);
  });

  it('answers null (the shell) and counts why when the data is unavailable or the render passes its time', async () => {
    const pages = renderer();
    const [data, timeout] = [await fallbacks('data'), await fallbacks('timeout')];
    state.__bundle.behaviour = 'data';
    expect(await pages.page('/listing/2')).toBeNull();
    state.__bundle.behaviour = 'hang';
    expect(await pages.page('/listing/3')).toBeNull();
    expect([await fallbacks('data'), await fallbacks('timeout')]).toEqual([data + 1, timeout + 1]);
    // A failed render is not kept: the next request renders again.
    state.__bundle.behaviour = 'ok';
    expect(await pages.page('/listing/2')).toMatchObject({ status: 200 });
  });

  it('serves the shell at once when every render slot is taken, and renders again once one is free', async () => {
    const pages = renderer({ PAGE_RENDER_CONCURRENCY: 1 });
    const busy = await fallbacks('busy');
    state.__bundle.behaviour = 'hang';
    const slow = pages.page('/listing/slow');
    expect(await pages.page('/listing/other')).toBeNull();
    expect(await fallbacks('busy')).toBe(busy + 1);
    expect(state.__bundle.renders).toEqual(['/listing/slow']);
    expect(await slow).toBeNull();
    state.__bundle.behaviour = 'ok';
    expect(await pages.page('/listing/other')).toMatchObject({ status: 200 });
  });

  it('renders nothing without a bundle or with WEB_RENDERING=browser', async () => {
    for (const pages of [renderer({ WEB_SERVER_BUNDLE: join(dir, 'missing.cjs') }), renderer({ WEB_RENDERING: 'browser' })]) {
      expect(pages.rendersOnServer('/listing/1')).toBe(false);
      expect(await pages.page('/listing/1')).toBeNull();
    }
    expect(state.__bundle.renders).toEqual([]);
  });
});
