import { useMemo, useState } from 'react';
import type { AdminListingDto } from '@market/contracts';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { useAdminListingsQuery } from './admin.api';
import { AdminListingRow } from './AdminListingRow';
import { AdminListingsFilters } from './AdminListingsFilters';
import { CancelListingDialog } from './CancelListingDialog';
import { adminListingsEmptyState, filterAdminListings, NO_FILTERS, pendingCount, type AdminListingFilters } from './admin-listings-filter';
import { useAdminListingActions } from './use-admin-listing-actions';
import './admin-listings.css';

/** Admin Listings tab (SPEC §2): search and filters with chips, feature, status (optimistic), view and delete. */
export function AdminListingsTab() {
  const { data, isLoading, isError, refetch } = useAdminListingsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [filters, setFilters] = useState<AdminListingFilters>(NO_FILTERS);
  const [cancelling, setCancelling] = useState<AdminListingDto | null>(null);
  const { pendingStatus, outcome, setOutcome, changeStatus, toggleFeatured, remove, dialog } = useAdminListingActions(refetch);

  // A failed reload empties the table rather than showing stale rows as current (SPEC §8).
  const all = useMemo(
    () => (isError ? [] : (data?.listings ?? [])).map((listing) => (pendingStatus[listing.id] ? { ...listing, status: pendingStatus[listing.id] } : listing)),
    [data, isError, pendingStatus],
  );
  const shown = useMemo(() => filterAdminListings(all, filters), [all, filters]);
  const waiting = pendingCount(all);
  const emptyState = isLoading || isError ? null : adminListingsEmptyState(all.length, shown.length);

  return (
    <section className="admin-listings" aria-label="Listings">
      {dialog}
      <AdminListingsFilters filters={filters} setFilters={setFilters} waiting={waiting} />

      {outcome && (
        <p className={`alert ${outcome.kind === 'error' ? 'alert-error' : 'alert-success'}`} role={outcome.kind === 'error' ? 'alert' : 'status'}>
          {outcome.text}
        </p>
      )}
      {cancelling && (
        <CancelListingDialog
          listing={cancelling}
          onClose={() => setCancelling(null)}
          onCancelled={() => {
            setOutcome({ kind: 'success', text: `"${cancelling.title}" was cancelled; its bidders and seller are being emailed.` });
            setCancelling(null);
          }}
        />
      )}
      {isError && <LoadError onRetry={() => refetch()}>Could not load listings.</LoadError>}
      {isLoading && <LoadingState text="Loading listings..." />}
      {emptyState === 'none-in-system' && <p className="card center muted">No listings available in the system.</p>}
      {emptyState === 'none-match' && (
        <div className="card center">
          <p className="muted">No listings match the current filters.</p>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => setFilters(NO_FILTERS)}>
            Clear Filters
          </button>
        </div>
      )}

      {shown.length > 0 && (
        <>
          <div className="table-wrap">
            <table className="data admin-listings-table">
              <thead>
                <tr>
                  <th>Listing</th>
                  <th>Seller</th>
                  <th>Category</th>
                  <th>Price</th>
                  <th>Status</th>
                  <th>Featured</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((listing) => (
                  <AdminListingRow
                    key={listing.id}
                    listing={listing}
                    onStatus={(status) => changeStatus(listing, status)}
                    onFeature={() => toggleFeatured(listing)}
                    onDelete={() => remove(listing)}
                    onCancel={() => {
                      setOutcome(null);
                      setCancelling(listing);
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <div className="table-footer">
            Showing {shown.length} of {all.length} listings
          </div>
        </>
      )}
    </section>
  );
}
