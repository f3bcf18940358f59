import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { announceSessionEnded, api } from '../lib/api';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { startSession } from './session.slice';

/** What a `storage` event tells about the session token, as the browser reports it to the other tabs. */
export interface TokenChange {
  key: string | null;
  oldValue: string | null;
  newValue: string | null;
}

/** What another tab did to the session: ended it, started another, or nothing that concerns it. */
export function sessionChangeOf(change: TokenChange): 'ended' | 'changed' | null {
  // key null: the other tab cleared all of local storage.
  if (change.key !== null && change.key !== STORAGE_KEYS.token) return null;
  if (change.key === null || change.newValue === null) return 'ended';
  return change.newValue === change.oldValue ? null : 'changed';
}

/**
 * Keeps this tab on the session the browser holds: a logout, a login or an impersonation in another tab applies here
 * too, so a tab never shows one account while its requests go out as another (or as nobody).
 */
export function followSessionAcrossTabs(dispatch: ThunkDispatch<unknown, unknown, UnknownAction>, target: Pick<Window, 'addEventListener'> = window): void {
  target.addEventListener('storage', (event: StorageEvent) => {
    const change = sessionChangeOf(event);
    if (change === 'ended') announceSessionEnded(dispatch);
    if (change === 'changed') {
      // Nothing fetched for the old account may show under the new one.
      dispatch(api.util.resetApiState());
      void dispatch(startSession());
    }
  });
}
