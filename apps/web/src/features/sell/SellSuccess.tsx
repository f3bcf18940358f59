import { Link } from 'react-router-dom';
import type { ListingDto } from '@market/contracts';
import { formatDollars, listingStatusLabel } from '@market/domain';

/** After submission: what was created and what happens next (SPEC §2). */
export function SellSuccess({ listing, onSellAnother }: { listing: ListingDto; onSellAnother: () => void }) {
  const live = listing.status === 'active';
  return (
    <div className="card sell-card sell-success" role="status">
      <div className="success-mark" aria-hidden="true">
        ✓
      </div>
      <h1>{live ? 'Your listing is live!' : 'Listing submitted for review!'}</h1>
      <dl className="success-summary">
        <div>
          <dt>Title</dt>
          <dd>{listing.title}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge ${live ? 'badge-green' : 'badge-blue'}`}>{listingStatusLabel(listing.status)}</span>
          </dd>
        </div>
        <div>
          <dt>{listing.listing_type === 'auction' ? 'Starting price' : 'Price'}</dt>
          <dd>{formatDollars(listing.starting_price)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{listing.duration_days} days</dd>
        </div>
      </dl>
      <h2>What happens next</h2>
      <ol className="next-steps">
        {live ? (
          <li>Your listing was approved automatically and is visible to buyers now.</li>
        ) : (
          <>
            <li>Our team reviews your listing, usually within 24 hours.</li>
            <li>You get an email as soon as it is approved.</li>
          </>
        )}
        <li>It is then live for {listing.duration_days} days, and buyers can {listing.listing_type === 'auction' ? 'bid on it' : 'buy it or make offers'}.</li>
        <li>You can follow it, edit it or pause it from your dashboard.</li>
      </ol>
      <div className="sell-actions">
        <Link className="btn btn-primary" to="/dashboard">
          Go to Dashboard
        </Link>
        <Link className="btn btn-secondary" to="/sell" onClick={onSellAnother}>
          List Another Website
        </Link>
      </div>
    </div>
  );
}
