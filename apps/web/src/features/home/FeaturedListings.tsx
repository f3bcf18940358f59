import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useBrowseListingsQuery, type BrowseParams } from '../../api/listings.api';
import { ListingCard } from '../../components/listing/ListingCard';
import './home.css';

/** How many listings the home page shows (SPEC §9). */
export const FEATURED_COUNT = '6';
const FEATURED: BrowseParams = { featured: 'true', limit: FEATURED_COUNT };
const NEWEST: BrowseParams = { limit: FEATURED_COUNT, sort_by: 'created_at', sort_order: 'desc' };
const ANY: BrowseParams = { limit: FEATURED_COUNT };

function useLoggedError(error: unknown) {
  useEffect(() => {
    if (error) console.error('Error loading home listings', error);
  }, [error]);
}

/**
 * Up to six featured listings; when there are none (or they fail to load) the newest, and when that fails any six
 * (SPEC §7 fallbacks). Load failures are only logged, as on every public page.
 */
export function FeaturedListings() {
  const featured = useBrowseListingsQuery(FEATURED);
  const featuredEmpty = featured.isError || (featured.isSuccess && featured.data.listings.length === 0);
  const newest = useBrowseListingsQuery(NEWEST, { skip: !featuredEmpty });
  const any = useBrowseListingsQuery(ANY, { skip: !newest.isError });

  useLoggedError(featured.error);
  useLoggedError(newest.error);
  useLoggedError(any.error);

  const source = !featuredEmpty ? featured : !newest.isError ? newest : any;
  const listings = source.data?.listings ?? [];
  const loading = source.isLoading || source.isUninitialized;
  const failed = source.isError;
  if (failed) return null;

  return (
    <section className="container section home-featured" aria-labelledby="featured-heading">
      <div className="section-head">
        <h2 id="featured-heading">{featuredEmpty ? 'Latest listings' : 'Featured listings'}</h2>
        <Link to="/browse">View all listings →</Link>
      </div>
      {loading ? (
        <div className="home-loading" role="status">
          <div className="spinner" aria-hidden="true" />
          Loading listings...
        </div>
      ) : listings.length === 0 ? (
        <p className="muted">No listings yet. Be the first to <Link to="/sell">list your site</Link>.</p>
      ) : (
        <div className="home-featured-grid">
          {listings.map((listing, index) => (
            <ListingCard key={listing.id} listing={listing} priority={index === 0} />
          ))}
        </div>
      )}
    </section>
  );
}
