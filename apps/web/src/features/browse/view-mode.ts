import { useCallback, useContext, useEffect, useState } from 'react';
import { BROWSE_VIEW_COOKIE, type BrowseView } from '@market/contracts';
import { useInBrowser } from '../../lib/use-in-browser';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import { PagePrefsContext } from '../../lib/page-prefs';

export type ViewMode = BrowseView;

/** The remembered view, or null when none is (or storage cannot be read). */
function readViewMode(): ViewMode | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.browseViewMode);
    return stored === 'list' || stored === 'grid' ? stored : null;
  } catch {
    return null;
  }
}

/** Mirrors the remembered view in a cookie the server renders /browse with (a year, this site only). */
function mirrorInCookie(mode: ViewMode): void {
  document.cookie = `${BROWSE_VIEW_COOKIE}=${mode}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** Grid or list view, remembered in localStorage browseViewMode (SPEC §2) and mirrored in a cookie for the server. */
export function useViewMode(): [ViewMode, (mode: ViewMode) => void] {
  // What the server rendered (its cookie) while its HTML is hydrated; the remembered choice once in the browser (ADR 0072).
  const inBrowser = useInBrowser();
  const rendered = useContext(PagePrefsContext).browseView;
  const [chosen, setMode] = useState<ViewMode | null>(null);
  // Nothing remembered in this browser (storage cleared, or unreadable): the cookie's view, as the server rendered it.
  const mode = chosen ?? (inBrowser ? (readViewMode() ?? rendered) : rendered);
  // A choice remembered before the cookie existed (or a cookie cleared) is mirrored again, for the next page.
  useEffect(() => {
    const remembered = inBrowser && chosen === null ? readViewMode() : null;
    if (remembered !== null && remembered !== rendered) mirrorInCookie(remembered);
  }, [inBrowser, chosen, rendered]);
  const choose = useCallback((next: ViewMode) => {
    setMode(next);
    mirrorInCookie(next);
    try {
      localStorage.setItem(STORAGE_KEYS.browseViewMode, next);
    } catch {
      // Private mode or full storage: the choice still holds for this visit (and in the cookie).
    }
  }, []);
  return [mode, choose];
}
