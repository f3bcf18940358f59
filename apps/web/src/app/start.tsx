import { startTransition, StrictMode, useEffect, useRef, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import { createStore } from './store';
import { routes } from './routes';
import { hydrated } from '../lib/api';
import { STATE_ELEMENT_ID } from '../lib/page-head';
import { PagePrefsContext, pagePrefsOf } from '../lib/page-prefs';
import { startSession } from '../session/session.slice';
import { followSessionAcrossTabs } from '../session/session-sync';
import type { EarlyEvents } from '../lib/early-events';

/** The API answers a server-rendered page carries (ADR 0072), or null for the client shell. */
function serverState(): Record<string, unknown> | null {
  const text = document.getElementById(STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Loads the lazy routes this address shows, so the first browser render is the page the server rendered. */
async function loadShownRoutes(all: RouteObject[]): Promise<void> {
  const shown = (matchRoutes(all, window.location) ?? []).filter((match) => match.route.lazy);
  await Promise.all(
    shown.map(async ({ route }) => {
      const loaded = await (route.lazy as () => Promise<Partial<RouteObject>>)();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

/** How long what a visitor did before the app ran waits for the session to be known before it is handed over. */
const SESSION_WAIT_MS = 3000;

/** Renders its children and calls `onCommitted` once, after their first commit (for a hydration: the page taken over). */
function AfterFirstCommit({ onCommitted, children }: { onCommitted: () => void; children: ReactNode }) {
  const called = useRef(false);
  useEffect(() => {
    if (called.current) return;
    called.current = true;
    onCommitted();
  }, [onCommitted]);
  return children;
}

/**
 * Renders the app into #root: hydrates the server's HTML where there is some, else renders the client shell. What the
 * visitor did before (`early`) is handed over: the fields once hydrated, the kept press once the session is known.
 */
export async function start(early: EarlyEvents | null = null): Promise<void> {
  const store = createStore();
  const state = serverState();
  const container = document.getElementById('root') as HTMLElement;
  if (state && container.firstChild) {
    store.dispatch(hydrated(state));
    await loadShownRoutes(routes);
    const router = createBrowserRouter(routes);
    const app = (
      <StrictMode>
        <Provider store={store} serverState={store.getState()}>
          {/* The prefs the server rendered with, so the first render matches its HTML (ADR 0072). */}
          <PagePrefsContext.Provider value={pagePrefsOf(state)}>
            <RouterProvider router={router} />
          </PagePrefsContext.Provider>
        </Provider>
      </StrictMode>
    );
    // Hydrating in a transition lets React yield to the browser every few milliseconds instead of taking the main thread
    // for the whole tree at once: a tap or a scroll on the page is answered meanwhile (ADR 0072, amended). The app is
    // started once the page is taken over (the wrapper adds no markup, so the HTML still matches).
    await new Promise<void>((taken) => {
      startTransition(() => {
        early?.listening();
        hydrateRoot(container, <AfterFirstCommit onCommitted={taken}>{app}</AfterFirstCommit>, {
          // A mismatch is mended by React rendering that part again; it is reported, never shown (ADR 0072).
          onRecoverableError: (error) => console.warn('Hydration mended a difference from the server HTML', error),
        });
      });
    });
    early?.typed();
  } else {
    const router = createBrowserRouter(routes);
    createRoot(container).render(
      <StrictMode>
        <Provider store={store}>
          <RouterProvider router={router} />
        </Provider>
      </StrictMode>,
    );
  }
  // The session is the browser's (a stored token): it starts once the server's HTML is taken over.
  const session = store.dispatch(startSession());
  followSessionAcrossTabs(store.dispatch);
  // A press made before the app ran is handed over (lib/early-events.ts) once it is known who is signed in: "Add to
  // Watchlist" means "as me". A session slow to answer does not hold it for long, and then the press is dropped.
  const known = await Promise.race([session.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, SESSION_WAIT_MS, false))]);
  early?.pressed(known);
  // The page is the app's from here on: tests and probes may act once this mark is set.
  document.documentElement.dataset.app = 'ready';
}
