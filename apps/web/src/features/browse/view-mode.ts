import { useCallback, useState } from 'react';
import { useInBrowser } from '../../lib/use-in-browser';
import { STORAGE_KEYS } from '../../lib/storage-keys';

export type ViewMode = 'grid' | 'list';

function readViewMode(): ViewMode {
  try {
    return localStorage.getItem(STORAGE_KEYS.browseViewMode) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
}

/** Grid or list view, remembered in localStorage browseViewMode (SPEC §2). */
export function useViewMode(): [ViewMode, (mode: ViewMode) => void] {
  // Grid while the server's HTML is hydrated, as the server rendered it; the remembered choice once in the browser (ADR 0072).
  const inBrowser = useInBrowser();
  const [chosen, setMode] = useState<ViewMode | null>(null);
  const mode = chosen ?? (inBrowser ? readViewMode() : 'grid');
  const choose = useCallback((next: ViewMode) => {
    setMode(next);
    try {
      localStorage.setItem(STORAGE_KEYS.browseViewMode, next);
    } catch {
      // Private mode or full storage: the choice still holds for this visit.
    }
  }, []);
  return [mode, choose];
}
