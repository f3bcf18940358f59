import { StrictMode, type ReactNode } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router-dom';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createStore } from './app/store';
import { routes, type RouteHandle } from './app/routes';
import { pageAssetLinks, type BuildManifest } from './app/render/page-assets';
import { api, setServerApiBase } from './lib/api';
import { PageMetaCollectorContext, type PageMeta, type PageMetaCollector } from './lib/page-meta';
import { headHtml, headValues, pageDocument, SITE_NAME } from './lib/page-head';

/** What the gateway asks for: a page's path with its query and the public origin. */
export interface PageRequest {
  path: string;
  origin: string;
  /** Aborts the render (the gateway's time budget ran out or the visitor left). */
  signal: AbortSignal;
}

/** A rendered page: the whole document and its HTTP status, or where to send the visitor. */
export type RenderedPage = { kind: 'page'; status: number; html: string } | { kind: 'redirect'; status: number; location: string };

type ApiState = ReturnType<typeof api.reducer>;

let template = '';
let manifest: BuildManifest = {};

/**
 * Called once when the gateway loads this bundle (ADR 0072): where the API answers (the gateway itself) and where the
 * browser build is, whose index.html is every page's template and whose manifest names each page's files.
 */
export function configureRenderer(options: { apiBase: string; webDist: string }): void {
  setServerApiBase(options.apiBase);
  template = readFileSync(join(options.webDist, 'index.html'), 'utf8');
  manifest = JSON.parse(readFileSync(join(options.webDist, '.vite', 'manifest.json'), 'utf8')) as BuildManifest;
}

/** The handles of the routes a path shows, outermost first. */
function handlesOf(path: string): Array<Partial<RouteHandle>> {
  return (matchRoutes(routes, path) ?? []).map((match) => (match.route.handle ?? {}) as Partial<RouteHandle>);
}

/** True for the public pages the server renders (ADR 0072); any other path gets the browser's shell. */
export function rendersOnServer(path: string): boolean {
  return handlesOf(new URL(path, 'http://x').pathname).at(-1)?.serverRendered === true;
}

/** Thrown when a query the page made failed for a reason other than the visitor's (the API or a service is down). */
export class PageDataUnavailable extends Error {
  override name = 'PageDataUnavailable';
}

/** A 4xx answer is the page's to show (a listing not found); anything else means the page cannot be rendered now. */
function failedQuery(state: ReturnType<ReturnType<typeof createStore>['getState']>): string | null {
  for (const [key, query] of Object.entries(state[api.reducerPath].queries)) {
    if (query?.status !== 'rejected') continue;
    const status = (query.error as { status?: unknown } | undefined)?.status;
    if (typeof status !== 'number' || status >= 500) return `${key}: ${String(status)}`;
  }
  return null;
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
    signal.addEventListener('abort', () => stream.abort(signal.reason), { once: true });
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

/**
 * Renders one public page (ADR 0072): a first pass starts the queries the page makes, the renderer waits for them,
 * and a second pass renders the page with its answers, which go into the document for the browser's store so it
 * hydrates without asking again. The page's own usePageMeta gives the head.
 */
export async function renderPage(request: PageRequest): Promise<RenderedPage> {
  const url = new URL(request.path, request.origin);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url, { signal: request.signal }));
  if (context instanceof Response) {
    return { kind: 'redirect', status: context.status, location: context.headers.get('Location') ?? '/' };
  }
  const store = createStore();
  const router = createStaticRouter(handler.dataRoutes, context);
  const collector: PageMetaCollector = { meta: null };
  const app = (pageStore: ReturnType<typeof createStore>) => (
    <StrictMode>
      <Provider store={pageStore}>
        <PageMetaCollectorContext.Provider value={collector}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </PageMetaCollectorContext.Provider>
      </Provider>
    </StrictMode>
  );
  renderToString(app(store));
  const running = store.dispatch(api.util.getRunningQueriesThunk());
  await Promise.race([
    Promise.all(running),
    new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true })),
  ]);
  request.signal.throwIfAborted();
  const failed = failedQuery(store.getState());
  if (failed) throw new PageDataUnavailable(`A query of ${url.pathname} failed (${failed})`);
  const answers = settled(store.getState()[api.reducerPath]);
  collector.meta = null;
  const body = await streamToString(app(createStore({ [api.reducerPath]: answers })), request.signal);
  const meta: PageMeta = collector.meta ?? { title: SITE_NAME };
  const sources = handlesOf(url.pathname).flatMap((handle) => (handle.source ? [handle.source] : []));
  const head = [headHtml(headValues(meta, { origin: url.origin, path: url.pathname + url.search })), pageAssetLinks(manifest, sources)]
    .filter(Boolean)
    .join('\n    ');
  const html = pageDocument(template, { head, body, state: { [api.reducerPath]: answers } });
  if (html === null) throw new Error('index.html lacks the page-head markers or the root element');
  const status = context.statusCode >= 400 ? context.statusCode : (meta.status ?? 200);
  return { kind: 'page', status, html };
}
