import { useCallback, useState } from 'react';
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
  const [mode, setMode] = useState<ViewMode>(readViewMode);
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
