import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAddToWatchlistMutation } from '../../api/listings.api';
import { watchlistMessage } from './listing-actions';

const MESSAGE_MS = 4000;

/** Add to Watchlist: guests go to /login; a member's outcome is said for a few seconds. */
export function useWatchButton(listingId: string, signedIn: boolean) {
  const navigate = useNavigate();
  const [addToWatchlist, { isLoading: adding }] = useAddToWatchlistMutation();
  const [watchMessage, setWatchMessage] = useState<{ text: string; success: boolean } | null>(null);

  useEffect(() => {
    if (!watchMessage) return;
    const timer = setTimeout(() => setWatchMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [watchMessage]);

  const watch = async () => {
    if (!signedIn) {
      navigate('/login');
      return;
    }
    const result = await addToWatchlist(listingId);
    setWatchMessage(watchlistMessage('error' in result ? { ok: false, status: (result.error as { status?: unknown }).status } : { ok: true }));
  };
  return { watch, adding, watchMessage };
}
