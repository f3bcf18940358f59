import { Link } from 'react-router-dom';
import type { AdminListingDto } from '@market/contracts';
import { ADMIN_STATUSES, formatDollars, listingStatusLabel, type ListingStatus } from '@market/domain';
import { displayPrice } from '../../components/listing/ListingCard';
import { FigureBadges } from '../../components/listing/FigureBadges';
import { backedClaims, chargesDescribedAs } from '../../components/listing/figure-badges';
import { VerifiedBadge } from '../../components/listing/VerifiedBadge';
import { chargeDescriptorOf, claimFlags } from './admin-claim-flags';

/** A status an admin may set from the table. */
export type AdminStatus = (typeof ADMIN_STATUSES)[number];

interface RowProps {
  listing: AdminListingDto;
  onStatus: (status: AdminStatus) => void;
  onFeature: () => void;
  onDelete: () => void;
  onCancel: () => void;
}

/**
 * The verified-figures line of a row (D24): the claim badges, an inflated claim's flag (never beside a badge for the
 * same claim, ADR 0084), and how the charges the revenue is read from are described.
 */
function VerifiedFiguresFlags({ listing }: { listing: AdminListingDto }) {
  const flags = claimFlags(listing.verification);
  const descriptor = chargeDescriptorOf(listing.verification);
  const badges = backedClaims(listing);
  if (flags.length === 0 && !descriptor && !badges.revenue && !badges.traffic) return null;
  return (
    <div className="admin-figures">
      <FigureBadges {...badges} />
      {flags.map((flag) => (
        <span key={flag.kind} className="admin-claim-flag" data-testid={`claim-flag-${flag.kind}`}>
          <span className="badge badge-red">
            <span aria-hidden="true">⚠ </span>
            {flag.label}
          </span>{' '}
          <span className="muted small">{flag.detail}</span>
        </span>
      ))}
      {descriptor && <span className="muted small">{chargesDescribedAs(descriptor)}</span>}
    </div>
  );
}

/** One listing of the admin Listings table (SPEC §2): its facts, its status, featured, and what the admin may do. */
export function AdminListingRow({ listing, onStatus, onFeature, onDelete, onCancel }: RowProps) {
  // A sold listing's sale is unwound from its invoice; a cancelled one is final (ADR 0042).
  const cancellable = listing.status !== 'sold' && listing.status !== 'cancelled';
  const settable = (ADMIN_STATUSES as readonly ListingStatus[]).includes(listing.status);
  return (
    <tr data-testid="admin-listing-row" data-listing-id={listing.id}>
      <td data-label="Listing" className="admin-listing-title">
        <Link to={`/listing/${listing.id}`}>{listing.title}</Link> <VerifiedBadge verified={listing.ownership_verified} />
        <div className="muted small">Listed {new Date(listing.created_at).toLocaleDateString()}</div>
        <VerifiedFiguresFlags listing={listing} />
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
