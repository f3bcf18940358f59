import { Link } from 'react-router-dom';
import { listingCard } from '@market/contracts';
import { ListingCard } from '../../components/listing/ListingCard';
import { useMyListingsQuery } from '../../api/listings.api';
import { LoadError } from '../../components/feedback/QueryState';
import { dashboardRows, listLoadFailed, newestListings } from '../../lib/dashboard-lists';
import { errorDetail } from '../../lib/error-detail';
import { NoListingsYet, ViewEditLinks } from './OwnerListingParts';
import './my-listings.css';

const RECENT_COUNT = 3;

/** The Overview's 'Recent listings': the user's 3 newest, with view and edit links and a way to all of them. */
export function RecentListings() {
  const { data, error, isLoading } = useMyListingsQuery(undefined, { refetchOnMountOrArgChange: true });
  const recent = newestListings(dashboardRows(data?.listings, error), RECENT_COUNT);
  return (
    <section className="dash-recent" aria-labelledby="recent-listings-heading">
      <div className="dash-section-head">
        <h2 id="recent-listings-heading">Recent listings</h2>
        <Link to="/dashboard?tab=listings">View all</Link>
      </div>
      {listLoadFailed(error) && <LoadError>Could not load your listings: {errorDetail(error, 'please try again.')}</LoadError>}
      {isLoading && <p className="muted" role="status">Loading your listings...</p>}
      {!isLoading && !error && recent.length === 0 && <NoListingsYet />}
      {recent.length > 0 && (
        <div className="dash-card-grid">
          {recent.map((listing) => (
            <ListingCard key={listing.id} listing={listingCard(listing)} showStatus>
              <ViewEditLinks id={listing.id} />
            </ListingCard>
          ))}
        </div>
      )}
    </section>
  );
}
