import { createContext } from 'react';
import type { BrowseView } from '@market/contracts';

/**
 * What the visitor chose that the server renders with (ADR 0072): read from a cookie by the gateway, put into the
 * server's HTML with the page's answers, and given to the browser's first render, so hydration shows what the server
 * did. The remembered choice (localStorage) takes over once the page is the browser's.
 */
export interface PagePrefs {
  browseView: BrowseView;
}

export const DEFAULT_PAGE_PREFS: PagePrefs = { browseView: 'grid' };

/** The prefs a page was rendered with; the defaults in a page rendered only in the browser. */
export const PagePrefsContext = createContext<PagePrefs>(DEFAULT_PAGE_PREFS);

/** The prefs the server's state block carries, or the defaults when it has none or they are malformed. */
export function pagePrefsOf(state: Record<string, unknown> | null): PagePrefs {
  const prefs = state?.prefs as Partial<PagePrefs> | undefined;
  return { browseView: prefs?.browseView === 'list' ? 'list' : 'grid' };
}
