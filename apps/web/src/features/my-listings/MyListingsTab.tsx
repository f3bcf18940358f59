import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { listingCard, type ListingDto } from '@market/contracts';
import { listingStatusLabel, type ListingStatus } from '@market/domain';
import { ListingCard } from '../../components/listing/ListingCard';
import { useDeleteListingMutation, useMyListingsQuery, useSetListingStatusMutation } from '../../api/listings.api';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { dashboardRows, listLoadFailed, ownerToggle } from '../../lib/dashboard-lists';
import { errorDetail } from '../../lib/error-detail';
import { NoListingsYet, ViewEditLinks } from './OwnerListingParts';
import './my-listings.css';

interface Notice {
  kind: 'success' | 'error';
  text: string;
}

/** Dashboard My Listings: every listing of the user with its status, and view, edit, pause/activate, delete. */
export function MyListingsTab() {
  const { data, error, isLoading, refetch } = useMyListingsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [setStatus] = useSetListingStatusMutation();
  const [deleteListing] = useDeleteListingMutation();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const listings = dashboardRows(data?.listings, error);

  // Success notes fade after a few seconds (SPEC §9); errors stay until the next action.
  useEffect(() => {
    if (notice?.kind !== 'success') return;
    const timer = setTimeout(() => setNotice(null), 4000);
    return () => clearTimeout(timer);
  }, [notice]);

  const run = async (listing: ListingDto, action: () => Promise<unknown>, done: string, failed: string) => {
    setBusyId(listing.id);
    setNotice(null);
    try {
      await action();
      setNotice({ kind: 'success', text: done });
    } catch (failure) {
      setNotice({ kind: 'error', text: `${failed}: ${errorDetail(failure, 'Unknown error')}` });
    } finally {
      setBusyId(null);
    }
  };

  const toggle = (listing: ListingDto, status: 'active' | 'paused') =>
    run(
      listing,
      () => setStatus({ id: listing.id, status }).unwrap(),
      status === 'paused' ? `"${listing.title}" is paused and hidden from browse.` : `"${listing.title}" is active again.`,
      'Error updating listing',
    );

  const remove = (listing: ListingDto) => {
    if (!window.confirm('Are you sure you want to delete this listing?')) return;
    void run(listing, () => deleteListing(listing.id).unwrap(), `"${listing.title}" was deleted.`, 'Error deleting listing');
  };

  return (
    <section aria-labelledby="my-listings-heading">
      <div className="dash-section-head">
        <h2 id="my-listings-heading">
          My Listings{listings.length > 0 && <span className="muted"> ({listings.length})</span>}
        </h2>
        <Link className="btn btn-primary btn-small" to="/sell">
          List a website
        </Link>
      </div>
      {listings.length > 0 && <StatusSummary listings={listings} />}
      {notice && (
        <div className={`alert ${notice.kind === 'error' ? 'alert-error' : 'alert-success'}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </div>
      )}
      {listLoadFailed(error) && <LoadError onRetry={() => refetch()}>Could not load your listings: {errorDetail(error, 'please try again.')}</LoadError>}
      {isLoading && <LoadingState text="Loading your listings..." />}
      {!isLoading && !error && listings.length === 0 && <NoListingsYet />}
      {listings.length > 0 && (
        <div className="dash-card-grid">
          {listings.map((listing) => {
            const next = ownerToggle(listing.status);
            const busy = busyId === listing.id;
            return (
              <ListingCard key={listing.id} listing={listingCard(listing)} showStatus>
                {listing.status === 'pending' && <p className="dash-card-note muted">Waiting for review, usually within 24 hours.</p>}
                {listing.status === 'cancelled' && <p className="dash-card-note muted">Cancelled by Site Market: we emailed you the reason.</p>}
                <ViewEditLinks id={listing.id} />
                {next && (
                  <button type="button" className="btn btn-ghost btn-tiny" disabled={busy} onClick={() => toggle(listing, next.status)}>
                    {next.label}
                  </button>
                )}
                {deletable(listing) ? (
                  <button type="button" className="btn btn-danger btn-tiny" disabled={busy} onClick={() => remove(listing)}>
                    Delete
                  </button>
                ) : (
                  listing.bid_count > 0 &&
                  listing.status !== 'sold' &&
                  listing.status !== 'cancelled' && <p className="dash-card-note muted">Has bids, so it cannot be deleted (you can pause it).</p>
                )}
              </ListingCard>
            );
          })}
        </div>
      )}
    </section>
  );
}

/** A seller may delete a listing no one has bid on, unless it is sold or cancelled (ADR 0042). */
function deletable(listing: ListingDto): boolean {
  return listing.bid_count === 0 && listing.status !== 'sold' && listing.status !== 'cancelled';
}

/** "2 Active · 1 Pending Review": how the user's listings split by status. */
function StatusSummary({ listings }: { listings: ListingDto[] }) {
  const counts = new Map<ListingStatus, number>();
  for (const listing of listings) counts.set(listing.status, (counts.get(listing.status) ?? 0) + 1);
  return (
    <p className="muted dash-status-summary">
      {[...counts].map(([status, count]) => `${count} ${listingStatusLabel(status)}`).join(' · ')}
    </p>
  );
}
