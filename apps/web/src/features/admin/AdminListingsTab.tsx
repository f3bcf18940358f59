import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminListingDto } from '@market/contracts';
import { ADMIN_STATUSES, formatDollars, listingStatusLabel, type ListingStatus } from '@market/domain';
import { useConfirm } from '../../components/dialog/use-confirm';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { displayPrice } from '../../components/listing/ListingCard';
import { VerifiedBadge } from '../../components/listing/VerifiedBadge';
import { useAdminDeleteListingMutation, useAdminListingsQuery, useAdminUpdateListingMutation } from './admin.api';
import { CancelListingDialog } from './CancelListingDialog';
import { errorDetail } from '../../lib/error-detail';
import {
  activeFilterChips,
  adminListingsEmptyState,
  CATEGORY_FILTER_OPTIONS,
  filterAdminListings,
  NO_FILTERS,
  pendingCount,
  STATUS_FILTER_OPTIONS,
  withoutFilter,
  type AdminListingFilters,
} from './admin-listings-filter';
import './admin-listings.css';

type AdminStatus = (typeof ADMIN_STATUSES)[number];

/** Admin Listings tab (SPEC §2): search and filters with chips, feature, status (optimistic), view and delete. */
export function AdminListingsTab() {
  const { data, isLoading, isError, refetch } = useAdminListingsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [updateListing] = useAdminUpdateListingMutation();
  const [deleteListing] = useAdminDeleteListingMutation();
  const { ask, dialog } = useConfirm();
  const [filters, setFilters] = useState<AdminListingFilters>(NO_FILTERS);
  // Status changes show in the table at once and stay until the reload that follows them has arrived.
  const [pendingStatus, setPendingStatus] = useState<Record<string, ListingStatus>>({});
  const [cancelling, setCancelling] = useState<AdminListingDto | null>(null);
  // What the last delete or cancellation came to, e.g. a delete refused because the listing has bids (ADR 0042).
  const [outcome, setOutcome] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);

  // A failed reload empties the table rather than showing stale rows as current (SPEC §8).
  const all = useMemo(
    () => (isError ? [] : (data?.listings ?? [])).map((listing) => (pendingStatus[listing.id] ? { ...listing, status: pendingStatus[listing.id] } : listing)),
    [data, isError, pendingStatus],
  );
  const shown = useMemo(() => filterAdminListings(all, filters), [all, filters]);
  const chips = activeFilterChips(filters);
  const waiting = pendingCount(all);
  const emptyState = isLoading || isError ? null : adminListingsEmptyState(all.length, shown.length);

  const setFilter = (key: keyof AdminListingFilters, value: string) => setFilters((current) => ({ ...current, [key]: value }));

  const changeStatus = async (listing: AdminListingDto, status: AdminStatus) => {
    setPendingStatus((current) => ({ ...current, [listing.id]: status }));
    try {
      await updateListing({ id: listing.id, changes: { status } }).unwrap();
    } catch (failure) {
      console.error('Error updating listing status', failure);
    }
    // Reloaded whatever happened, so a refused change falls back to the stored status (SPEC §8).
    await refetch();
    setPendingStatus(({ [listing.id]: _done, ...rest }) => rest);
  };

  const toggleFeatured = async (listing: AdminListingDto) => {
    try {
      await updateListing({ id: listing.id, changes: { featured: !listing.featured } }).unwrap();
    } catch (failure) {
      console.error('Error toggling featured', failure);
    }
    await refetch();
  };

  const remove = async (listing: AdminListingDto) => {
    if (!(await ask({ title: 'Delete listing', text: 'Are you sure you want to delete this listing?', confirmLabel: 'Delete listing', tone: 'danger' }))) return;
    setOutcome(null);
    try {
      await deleteListing(listing.id).unwrap();
    } catch (failure) {
      setOutcome({ kind: 'error', text: errorDetail(failure, 'Could not delete the listing. Please try again.') });
    }
  };

  return (
    <section className="admin-listings" aria-label="Listings">
      {dialog}
      <div className="filters admin-listings-filters">
        <label className="admin-listings-search">
          Search
          <input
            type="search"
            aria-label="Search"
            placeholder="Title or seller username"
            value={filters.search}
            onChange={(event) => setFilter('search', event.target.value)}
          />
        </label>
        <label>
          Status
          <select aria-label="Status" value={filters.status} onChange={(event) => setFilter('status', event.target.value)}>
            {STATUS_FILTER_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select aria-label="Category" value={filters.category} onChange={(event) => setFilter('category', event.target.value)}>
            {CATEGORY_FILTER_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        {waiting > 0 && filters.status !== 'pending' && (
          <button type="button" className="btn btn-secondary btn-tiny pending-review-link" onClick={() => setFilter('status', 'pending')}>
            {waiting} pending review
          </button>
        )}
        {waiting > 0 && filters.status === 'pending' && <span className="badge admin-pending-badge pending-review-link">{waiting} pending review</span>}
      </div>

      {chips.length > 0 && (
        <div className="filter-chips" aria-label="Active filters">
          {chips.map((chip) => (
            <span className="filter-chip" key={chip.key}>
              {chip.label}
              <button type="button" aria-label={`Remove filter ${chip.label}`} onClick={() => setFilters((current) => withoutFilter(current, chip.key))}>
                ×
              </button>
            </span>
          ))}
          <button type="button" className="link-button filter-chips-clear" onClick={() => setFilters(NO_FILTERS)}>
            Clear all
          </button>
        </div>
      )}

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
                  <ListingRow
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

interface RowProps {
  listing: AdminListingDto;
  onStatus: (status: AdminStatus) => void;
  onFeature: () => void;
  onDelete: () => void;
  onCancel: () => void;
}

function ListingRow({ listing, onStatus, onFeature, onDelete, onCancel }: RowProps) {
  // A sold listing's sale is unwound from its invoice; a cancelled one is final (ADR 0042).
  const cancellable = listing.status !== 'sold' && listing.status !== 'cancelled';
  const settable = (ADMIN_STATUSES as readonly ListingStatus[]).includes(listing.status);
  return (
    <tr data-testid="admin-listing-row" data-listing-id={listing.id}>
      <td data-label="Listing" className="admin-listing-title">
        <Link to={`/listing/${listing.id}`}>{listing.title}</Link> <VerifiedBadge verified={listing.ownership_verified} />
        <div className="muted small">Listed {new Date(listing.created_at).toLocaleDateString()}</div>
      </td>
      <td data-label="Seller">{listing.seller_username ?? <span className="muted">—</span>}</td>
      <td data-label="Category">{listing.category}</td>
      <td data-label="Price">{formatDollars(displayPrice(listing))}</td>
      <td data-label="Status">
        <select
          className={`status-select status-select-${listing.status}`}
          disabled={listing.status === 'cancelled'}
          aria-label={`Status of ${listing.title}`}
          value={listing.status}
          onChange={(event) => onStatus(event.target.value as AdminStatus)}
        >
          {/* Paused and draft are the owner's states: shown, but an admin cannot pick them (D16). */}
          {!settable && (
            <option value={listing.status} disabled>
              {listingStatusLabel(listing.status)}
            </option>
          )}
          {ADMIN_STATUSES.map((status) => (
            <option key={status} value={status}>
              {listingStatusLabel(status)}
            </option>
          ))}
        </select>
      </td>
      <td data-label="Featured">
        {listing.featured ? <span className="badge admin-featured-badge">★ Featured</span> : <span className="muted">No</span>}
      </td>
      <td data-label="Actions">
        <div className="row-actions">
          <button type="button" className="btn btn-ghost btn-tiny" onClick={onFeature}>
            {listing.featured ? 'Unfeature' : 'Feature'}
          </button>
          <Link className="btn btn-secondary btn-tiny" to={`/listing/${listing.id}`}>
            View
          </Link>
          {cancellable && (
            <button type="button" className="btn btn-secondary btn-tiny" onClick={onCancel}>
              Cancel
            </button>
          )}
          <button type="button" className="btn btn-danger btn-tiny" onClick={onDelete}>
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
}
