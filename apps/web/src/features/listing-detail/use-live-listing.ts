import { useEffect, useState } from 'react';
import type { LiveMessage } from '@market/contracts';
import { useAppDispatch, type AppDispatch } from '../../lib/store-hooks';
import { listingsApi } from '../../api/listings.api';
import { api } from '../../lib/api';
import { livePatch, rememberLive } from '../../api/live-state';
import { liveListingUrl, liveReaction, openLiveConnection } from './live-listing';

/** Reloads the listing and (or) its bid history from the API. */
function reload(dispatch: AppDispatch, listingId: string, types: Array<'Listing' | 'Bids'>): void {
  dispatch(api.util.invalidateTags(types.map((type) => ({ type, id: listingId }))));
}

/**
 * Applies one live message to the viewed listing: shows the public fields it carries at once, then reloads from the
 * API (SPEC §2: new_bid reloads the listing). The news is remembered, so a reload that is still behind it (or a late
 * message) cannot move the listing back (see lib/live-state.ts). Returns the new end when a soft close (D9) moved it.
 */
export function applyLiveMessage(dispatch: AppDispatch, listingId: string, message: LiveMessage): { extendedUntil: string | null } {
  const reaction = liveReaction(listingId, message);
  if (!reaction) return { extendedUntil: null };
  if (Object.keys(reaction.patch).length > 0) {
    rememberLive(listingId, reaction.patch);
    dispatch(listingsApi.util.updateQueryData('listing', listingId, (draft) => void Object.assign(draft, livePatch(listingId, draft))));
  }
  reload(dispatch, listingId, reaction.reload);
  return { extendedUntil: reaction.extendedUntil ?? null };
}

/**
 * Follows the viewed listing live over /ws/listings/{id} (D21) while `enabled`; reconnects with backoff (reloading
 * what may have been missed) and closes on unmount. Returns the new end of an auction extended while the page was open.
 */
export function useLiveListing(listingId: string, enabled: boolean): { extendedUntil: string | null } {
  const dispatch = useAppDispatch();
  const [extended, setExtended] = useState<{ listingId: string; until: string } | null>(null);

  useEffect(() => {
    if (!enabled || !listingId || typeof WebSocket === 'undefined') return;
    const connection = openLiveConnection({
      url: liveListingUrl(listingId, window.location),
      onMessage: (message) => {
        const { extendedUntil } = applyLiveMessage(dispatch, listingId, message);
        if (extendedUntil) setExtended({ listingId, until: extendedUntil });
      },
      onReconnect: () => reload(dispatch, listingId, ['Listing', 'Bids']),
    });
    return () => connection.close();
  }, [listingId, enabled, dispatch]);

  return { extendedUntil: extended?.listingId === listingId ? extended.until : null };
}
