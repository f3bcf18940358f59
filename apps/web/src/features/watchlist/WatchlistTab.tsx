import { useState } from 'react';
import { Link } from 'react-router-dom';
import { listingCard } from '@market/contracts';
import { ListingCard } from '../../components/listing/ListingCard';
import { useRemoveFromWatchlistMutation, useSetWatchRemindersMutation, useWatchlistQuery } from '../../api/listings.api';
import { EmptyState, LoadError, LoadingState } from '../../components/feedback/QueryState';
import { dashboardRows, listLoadFailed } from '../../lib/dashboard-lists';
import { errorDetail } from '../../lib/error-detail';
import './watchlist.css';

/** Dashboard Watchlist tab: the listings the user watches, each with a Remove button, and the ending-soon reminders. */
export function WatchlistTab() {
  const { data, error, isLoading, refetch } = useWatchlistQuery(undefined, { refetchOnMountOrArgChange: true });
  const [removeFromWatchlist] = useRemoveFromWatchlistMutation();
  const [setReminders, reminderChange] = useSetWatchRemindersMutation();
  const [removing, setRemoving] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const entries = dashboardRows(data?.watchlist, error);

  const remove = async (listingId: string) => {
    setRemoving(listingId);
    setFailure(null);
    try {
      await removeFromWatchlist(listingId).unwrap();
    } catch (problem) {
      setFailure(`Error removing from watchlist: ${errorDetail(problem, 'Unknown error')}`);
    } finally {
      setRemoving(null);
    }
  };

  const toggleReminders = async (on: boolean) => {
    setFailure(null);
    try {
      await setReminders(on).unwrap();
    } catch (problem) {
      setFailure(`Could not change the reminders: ${errorDetail(problem, 'Unknown error')}`);
    }
  };

  return (
    <section aria-labelledby="watchlist-heading">
      <div className="watchlist-head">
        <h2 id="watchlist-heading">
          Watchlist{entries.length > 0 && <span className="muted"> ({entries.length})</span>}
        </h2>
        <Link to="/browse">Browse more websites</Link>
      </div>
      {data && (
        <label className="checkbox watchlist-reminders">
          <input type="checkbox" checked={data.reminders} disabled={reminderChange.isLoading} onChange={(e) => toggleReminders(e.target.checked)} />
          Email me 24 hours before a watched auction ends
        </label>
      )}
      {failure && (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      )}
      {listLoadFailed(error) && <LoadError onRetry={() => refetch()}>Could not load your watchlist: {errorDetail(error, 'please try again.')}</LoadError>}
      {isLoading && <LoadingState text="Loading your watchlist..." />}
      {!isLoading && !error && entries.length === 0 && (
        <EmptyState>
          <p>Your watchlist is empty.</p>
          <p className="muted">Add listings from their page to keep an eye on them.</p>
          <Link className="btn btn-primary" to="/browse">
            Browse Websites
          </Link>
        </EmptyState>
      )}
      {entries.length > 0 && (
        <div className="watchlist-grid">
          {entries.map((entry) => (
            <ListingCard key={entry.listing_id} listing={listingCard(entry.listing)}>
              <span className="watchlist-added muted">Added {new Date(entry.created_at).toLocaleDateString()}</span>
              <Link className="btn btn-secondary btn-tiny" to={`/listing/${entry.listing_id}`}>
                View
              </Link>
              <button
                type="button"
                className="btn btn-danger btn-tiny"
                disabled={removing === entry.listing_id}
                aria-label={`Remove ${entry.listing.title} from watchlist`}
                onClick={() => remove(entry.listing_id)}
              >
                Remove
              </button>
            </ListingCard>
          ))}
        </div>
      )}
    </section>
  );
}
