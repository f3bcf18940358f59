import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { SavedSearchDto } from '@market/contracts';
import { useDeleteSavedSearchMutation, useSavedSearchesQuery, useUpdateSavedSearchMutation } from '../../api/saved-searches.api';
import { useConfirm } from '../../components/dialog/use-confirm';
import { EmptyState, LoadError, LoadingState } from '../../components/feedback/QueryState';
import { dashboardRows, listLoadFailed } from '../../lib/dashboard-lists';
import { errorDetail } from '../../lib/error-detail';
import { savedSearchBrowsePath, savedSearchSummary } from '../../lib/saved-search-text';
import './saved-searches.css';

/** Dashboard Saved searches tab (ADR 0074): each search with its filters, its matches, alerts on or off, and delete. */
export function SavedSearchesTab() {
  const { data, error, isLoading, refetch } = useSavedSearchesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [update] = useUpdateSavedSearchMutation();
  const [remove] = useDeleteSavedSearchMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const { ask, dialog } = useConfirm();
  const heading = useRef<HTMLHeadingElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const searches = dashboardRows(data?.saved_searches, error);

  const act = async (id: string, what: string, change: () => Promise<unknown>) => {
    setBusy(id);
    setFailure(null);
    try {
      await change();
    } catch (problem) {
      setFailure(`Could not ${what}: ${errorDetail(problem, 'please try again')}`);
    } finally {
      setBusy(null);
    }
  };
  const toggle = (search: SavedSearchDto) => act(search.id, 'change the alerts', () => update({ id: search.id, alerts: !search.alerts }).unwrap());
  const drop = async (search: SavedSearchDto) => {
    const confirmed = await ask({ title: 'Delete this saved search?', text: `“${search.name}” and its alerts will be gone.`, confirmLabel: 'Delete search', tone: 'danger' });
    if (!confirmed) return;
    await act(search.id, 'delete the search', () => remove(search.id).unwrap());
    // Its row, and the button that had focus, are gone: focus goes back to the list's heading.
    heading.current?.focus();
  };

  return (
    <section aria-labelledby="saved-searches-heading">
      <div className="saved-searches-head">
        <h2 id="saved-searches-heading" ref={heading} tabIndex={-1}>
          Saved searches{data && <span className="muted"> ({searches.length} of {data.limit})</span>}
        </h2>
        <Link to="/browse">Browse websites</Link>
      </div>
      {failure && (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      )}
      {listLoadFailed(error) && <LoadError onRetry={() => refetch()}>Could not load your saved searches: {errorDetail(error, 'please try again.')}</LoadError>}
      {isLoading && <LoadingState text="Loading your saved searches..." />}
      {!isLoading && !error && searches.length === 0 && (
        <EmptyState>
          <p>You have no saved searches.</p>
          <p className="muted">Choose filters on the browse page and press “Save this search” to hear about new listings that match.</p>
          <Link className="btn btn-primary" to="/browse">
            Browse Websites
          </Link>
        </EmptyState>
      )}
      {searches.length > 0 && (
        <ul className="saved-searches">
          {searches.map((search) => (
            <li key={search.id} className="card saved-search" data-testid="saved-search">
              <div className="saved-search-text">
                <h3>{search.name}</h3>
                <p className="muted">{savedSearchSummary(search.filters)}</p>
                <p className="saved-search-facts">
                  <span>
                    {search.matches} {search.matches === 1 ? 'new listing has' : 'new listings have'} matched since {new Date(search.created_at).toLocaleDateString()}
                  </span>
                  <span className={search.alerts ? 'badge badge-green' : 'badge badge-gray'}>{search.alerts ? 'Email alerts on' : 'Email alerts off'}</span>
                </p>
              </div>
              <div className="saved-search-actions">
                <Link className="btn btn-secondary btn-tiny" to={savedSearchBrowsePath(search.filters)}>
                  View listings
                </Link>
                <button
                  type="button"
                  className="btn btn-ghost btn-tiny"
                  disabled={busy === search.id}
                  aria-label={`${search.alerts ? 'Turn alerts off' : 'Turn alerts on'} for ${search.name}`}
                  onClick={() => toggle(search)}
                >
                  {search.alerts ? 'Turn alerts off' : 'Turn alerts on'}
                </button>
                <button type="button" className="btn btn-danger btn-tiny" disabled={busy === search.id} aria-label={`Delete ${search.name}`} onClick={() => void drop(search)}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {dialog}
    </section>
  );
}
