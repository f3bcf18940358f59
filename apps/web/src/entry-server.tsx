import { StrictMode, type ReactNode } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import type { QueryCacheKey } from '@reduxjs/toolkit/query';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router-dom';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createStore } from './app/store';
import { routes, type RouteHandle } from './app/routes';
import { pageAssets, serverTemplate, type BuildManifest, type StyleText } from './app/render/page-assets';
import { pageModulesElement } from './lib/page-modules';
import { api, hydrated, setServerApiBase } from './lib/api';
import { PageMetaCollectorContext, type PageMeta, type PageMetaCollector } from './lib/page-meta';
import { headHtml, headValues, pageDocument, SITE_NAME } from './lib/page-head';
import { DEFAULT_PAGE_PREFS, PagePrefsContext, type PagePrefs } from './lib/page-prefs';

/** What the gateway asks for: a page's path with its query and the public origin. */
export interface PageRequest {
  path: string;
  origin: string;
  /** Aborts the render (the gateway's time budget ran out; never one visitor leaving, since renders are shared). */
  signal: AbortSignal;
  /** What the visitor chose that the page shows (the browse view, from its cookie); the defaults when absent. */
  prefs?: PagePrefs;
}

/** A rendered page: the whole document and its HTTP status, or where to send the visitor. */
export type RenderedPage = { kind: 'page'; status: number; html: string } | { kind: 'redirect'; status: number; location: string };

type ApiState = ReturnType<typeof api.reducer>;

let template = '';
let templateScripts: string[] = [];
let manifest: BuildManifest = {};
let styleText: StyleText = () => null;

/** Reads the build's stylesheets once each, for pages to inline (null for a file that is not there). */
function stylesheetsOf(webDist: string): StyleText {
  const texts = new Map<string, string | null>();
  return (file) => {
    if (!texts.has(file)) {
      try {
        texts.set(file, readFileSync(join(webDist, file), 'utf8'));
      } catch {
        texts.set(file, null);
      }
    }
    return texts.get(file) ?? null;
  };
}

/**
 * Called once when the gateway loads this bundle (ADR 0072): where the API answers (the gateway itself) and where the
 * browser build is, whose index.html is every page's template and whose manifest names each page's files.
 */
export function configureRenderer(options: { apiBase: string; webDist: string }): void {
  setServerApiBase(options.apiBase);
  styleText = stylesheetsOf(options.webDist);
  // Rendered pages carry their styles and name their scripts (ADR 0072, amended): a phone on a slow network paints the
  // page without a round trip for a stylesheet and loads the images it shows before the app's scripts.
  ({ template, scripts: templateScripts } = serverTemplate(readFileSync(join(options.webDist, 'index.html'), 'utf8'), styleText));
  manifest = JSON.parse(readFileSync(join(options.webDist, '.vite', 'manifest.json'), 'utf8')) as BuildManifest;
}

/** The handles of the routes a path shows, outermost first. */
function handlesOf(path: string): Array<Partial<RouteHandle>> {
  return (matchRoutes(routes, path) ?? []).map((match) => (match.route.handle ?? {}) as Partial<RouteHandle>);
}

/**
 * The asked path and query on the site's origin. Joined as text, never resolved: a path like `//elsewhere.example/x`
 * must stay a path of this site, not name another one (its canonical link and previews would point there).
 */
function pageUrl(origin: string, path: string): URL {
  return new URL(`${origin}${path.startsWith('/') ? path : `/${path}`}`);
}

/** True for the public pages the server renders (ADR 0072); any other path (or one no URL can hold) gets the shell. */
export function rendersOnServer(path: string): boolean {
  try {
    return handlesOf(pageUrl('http://site.invalid', path).pathname).at(-1)?.serverRendered === true;
  } catch {
    return false;
  }
}

/** Thrown when a query the page made failed for a reason other than the visitor's (the API or a service is down). */
export class PageDataUnavailable extends Error {
  override name = 'PageDataUnavailable';
}

/** The queries that failed for a reason other than the visitor's (a 5xx, no answer): a 4xx is the page's to show. */
function failedQueries(state: ReturnType<ReturnType<typeof createStore>['getState']>): string[] {
  return Object.entries(state[api.reducerPath].queries).flatMap(([key, query]) => {
    if (query?.status !== 'rejected') return [];
    const status = (query.error as { status?: unknown } | undefined)?.status;
    return typeof status !== 'number' || status >= 500 ? [key] : [];
  });
}

/** The whole app's HTML, rendered with React's streaming renderer and read to its end (every query has answered). */
function streamToString(app: ReactNode, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString('utf8');
        done();
      },
      final(done) {
        resolve(html);
        done();
      },
    });
    const stream = renderToPipeableStream(app, {
      // Crawlers and link previews read the document once: it is sent whole, with every part rendered (ADR 0072).
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: (error) => reject(error instanceof Error ? error : new Error(String(error))),
    });
    const onAbort = () => stream.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    sink.on('finish', () => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The answers as final: a query that was refused (a listing not found) counts as settled, so neither the second pass
 * nor the browser's hydration asks again and shows "loading" where the server rendered "not found". RTK Query asks
 * again for a refused query on mount unless it has a fulfilled time.
 */
function settled(answers: ApiState): ApiState {
  const queries = Object.fromEntries(
    Object.entries(answers.queries).map(([key, query]) => [
      key,
      query?.status === 'rejected' && !query.fulfilledTimeStamp ? { ...query, fulfilledTimeStamp: query.startedTimeStamp } : query,
    ]),
  );
  return { ...answers, queries } as ApiState;
}

// Rounds of render-and-wait: a query that starts only once another has answered (a listing's bid history) needs one
// more round; a page never needs more than a few.
const MAX_QUERY_ROUNDS = 3;

/** Resolves when `promise` does, or rejects when `signal` aborts; leaves no listener behind either way. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  let onAbort = () => undefined as void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Renders and waits for the queries the render started, again while a round starts new ones. After each round the
 * answers are marked settled, so a refused query is not asked again by the next round. A first-round failure throws
 * (the shell is served); a later one is left for the browser.
 */
async function answerEveryQuery(render: () => void, store: ReturnType<typeof createStore>, signal: AbortSignal): Promise<void> {
  for (let round = 0; round < MAX_QUERY_ROUNDS; round += 1) {
    render();
    const running = store.dispatch(api.util.getRunningQueriesThunk());
    if (running.length === 0) return;
    await untilAborted(Promise.all(running), signal);
    const failed = failedQueries(store.getState());
    // The page's own data (the first round: the listing, the browse page) must be there, or the page is the shell.
    if (failed.length > 0 && round === 0) throw new PageDataUnavailable(`A query failed (${failed.join(', ')})`);
    if (failed.length > 0) {
      // A part that waited on the page's data (a listing's bid history) renders as loading and the browser asks for
      // it: one service down does not cost the whole page its HTML.
      for (const key of failed) store.dispatch(api.internalActions.removeQueryResult({ queryCacheKey: key as QueryCacheKey }));
      return;
    }
    store.dispatch(hydrated({ [api.reducerPath]: settled(store.getState()[api.reducerPath]) }));
  }
}

/**
 * Renders one public page (ADR 0072): a first pass starts the queries the page makes, the renderer waits for them,
 * and a second pass renders the page with its answers, which go into the document for the browser's store so it
 * hydrates without asking again. The page's own usePageMeta gives the head.
 */
export async function renderPage(request: PageRequest): Promise<RenderedPage> {
  const url = pageUrl(request.origin, request.path);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url, { signal: request.signal }));
  if (context instanceof Response) {
    return { kind: 'redirect', status: context.status, location: context.headers.get('Location') ?? '/' };
  }
  // A route that failed to load (its module, an error element) is the server's trouble: the shell, not a 500 page.
  if (context.errors || context.statusCode >= 500) throw new Error(`Routing ${url.pathname} failed (${context.statusCode})`);
  const store = createStore();
  const router = createStaticRouter(handler.dataRoutes, context);
  const collector: PageMetaCollector = { meta: null };
  const prefs = request.prefs ?? DEFAULT_PAGE_PREFS;
  const app = (pageStore: ReturnType<typeof createStore>) => (
    <StrictMode>
      <Provider store={pageStore}>
        <PagePrefsContext.Provider value={prefs}>
          <PageMetaCollectorContext.Provider value={collector}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </PageMetaCollectorContext.Provider>
        </PagePrefsContext.Provider>
      </Provider>
    </StrictMode>
  );
  await answerEveryQuery(() => renderToString(app(store)), store, request.signal);
  const answers = settled(store.getState()[api.reducerPath]);
  collector.meta = null;
  const body = await streamToString(app(createStore({ [api.reducerPath]: answers })), request.signal);
  const meta: PageMeta = collector.meta ?? { title: SITE_NAME };
  const sources = handlesOf(url.pathname).flatMap((handle) => (handle.source ? [handle.source] : []));
  const assets = pageAssets(manifest, sources, styleText);
  const head = [headHtml(headValues(meta, { origin: request.origin, path: url.pathname + url.search })), assets.styles, pageModulesElement([...templateScripts, ...assets.scripts])]
    .filter(Boolean)
    .join('\n    ');
  const html = pageDocument(template, { head, body, state: { [api.reducerPath]: answers, prefs } });
  if (html === null) throw new Error('index.html lacks the page-head markers or the root element');
  const status = context.statusCode >= 400 ? context.statusCode : (meta.status ?? 200);
  return { kind: 'page', status, html };
}
