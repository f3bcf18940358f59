import { useState } from 'react';
import type { AdminListingDto } from '@market/contracts';
import type { ListingStatus } from '@market/domain';
import { useConfirm } from '../../components/dialog/use-confirm';
import { errorDetail } from '../../lib/error-detail';
import { useAdminDeleteListingMutation, useAdminUpdateListingMutation } from './admin.api';
import type { AdminStatus } from './AdminListingRow';

/**
 * What an admin does to a listing from the Listings tab (SPEC §2): a status shown at once until the reload after it
 * arrives, featured toggled, a delete confirmed in a dialog (render `dialog`), and what the last act came to.
 */
export function useAdminListingActions(refetch: () => unknown) {
  const [updateListing] = useAdminUpdateListingMutation();
  const [deleteListing] = useAdminDeleteListingMutation();
  const { ask, dialog } = useConfirm();
  // Status changes show in the table at once and stay until the reload that follows them has arrived.
  const [pendingStatus, setPendingStatus] = useState<Record<string, ListingStatus>>({});
  // What the last delete or cancellation came to, e.g. a delete refused because the listing has bids (ADR 0042).
  const [outcome, setOutcome] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);

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

  return { pendingStatus, outcome, setOutcome, changeStatus, toggleFeatured, remove, dialog };
}
