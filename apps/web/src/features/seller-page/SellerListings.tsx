import type { SellerPageDto } from '@market/contracts';
import { ListingCard } from '../../components/listing/ListingCard';
import { NO_LISTINGS_TEXT } from './seller-page';

/** The seller's live listings, newest first (at most 24; ADR 0083), as the browse cards show them. */
export function SellerListings({ listings, count }: { listings: SellerPageDto['listings']; count: number }) {
  return (
    <section className="seller-listings" aria-labelledby="seller-listings-heading">
      <h2 id="seller-listings-heading">
        Live listings <span className="muted">({count})</span>
      </h2>
      {listings.length === 0 ? (
        <div className="card seller-empty" data-testid="seller-no-listings">
          <p>{NO_LISTINGS_TEXT}</p>
        </div>
      ) : (
        <>
          <div className="seller-listings-grid">
            {listings.map((listing) => (
              <ListingCard key={listing.id} listing={listing} />
            ))}
          </div>
          {count > listings.length && (
            <p className="muted small">
              Showing the newest {listings.length} of {count} live listings.
            </p>
          )}
        </>
      )}
    </section>
  );
}
