import { useEffect, useMemo } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { ListingDto } from '@market/contracts';
import { formatBusinessAge, formatDollars, formatTraffic, listingStatusLabel, monthlyProfit } from '@market/domain';
import { useListingQuery } from '../../api/listings.api';
import { useAppSelector } from '../../lib/store-hooks';
import { RENDERING_ON_SERVER } from '../../lib/api';
import { FigureBadges } from '../../components/listing/FigureBadges';
import { backedClaims } from '../../components/listing/figure-badges';
import { VerifiedBadge } from '../../components/listing/VerifiedBadge';
import { OwnershipPanel } from './OwnershipPanel';
import { VerificationPanel } from './VerificationPanel';
import { VerifiedFigures } from './VerifiedFigures';
import { noticeOf } from './verification-connections';
import { ActionPanel } from './ActionPanel';
import { BidHistory } from './BidHistory';
import { ListingTabs } from './ListingTabs';
import { ScreenshotGallery } from './ScreenshotGallery';
import { SellerCard } from './SellerCard';
import { planActions } from './listing-actions';
import { useLiveListing } from './use-live-listing';
import { usePageMeta } from '../../lib/page-meta';
import { listingStructuredData } from './listing-structured-data';
import './listing-detail.css';

/** Statuses that mean "no such listing for you": missing, hidden, or an id the API cannot read. */
const NOT_FOUND_STATUSES: unknown[] = [400, 403, 404, 422];

function Badges({ listing }: { listing: ListingDto }) {
  return (
    <div className="detail-badges">
      <Link className="badge badge-blue" to={`/browse?category=${encodeURIComponent(listing.category)}`}>
        {listing.category}
      </Link>
      <span className="badge badge-outline">{listing.listing_type === 'auction' ? 'Auction' : 'Fixed price'}</span>
      {listing.listing_type === 'auction' && (
        <span className="badge badge-gray">{listing.auction_type === 'auto' ? 'Auto auction' : 'Manual auction'}</span>
      )}
      {listing.featured && <span className="badge badge-featured">Featured</span>}
      <VerifiedBadge verified={listing.ownership_verified} />
      <FigureBadges {...backedClaims(listing)} />
      {listing.status === 'sold' ? (
        <span className="badge badge-sold">SOLD</span>
      ) : (
        <span className={`badge badge-status-${listing.status}`}>{listingStatusLabel(listing.status)}</span>
      )}
    </div>
  );
}

function Metrics({ listing }: { listing: ListingDto }) {
  const plan = planActions(listing, null);
  const metrics: Array<[string, string]> = [
    [plan.priceLabel, formatDollars(plan.price)],
    ['Monthly revenue', formatDollars(listing.monthly_revenue)],
    ['Monthly profit', formatDollars(monthlyProfit(listing.monthly_revenue, listing.monthly_expenses))],
    ['Monthly traffic', formatTraffic(listing.monthly_traffic)],
    ['Business age', formatBusinessAge(listing.business_age_months)],
    ['Profit margin', `${listing.profit_margin}%`],
  ];
  return (
    <dl className="detail-metrics" aria-label="Key figures">
      {metrics.map(([label, value]) => (
        <div key={label} className="card">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Centered({ children }: { children: React.ReactNode }) {
  return (
    <div className="container section">
      <div className="card center narrow">{children}</div>
    </div>
  );
}

/** /listing/{id}: badges, figures, screenshots, the four tabs, the seller and the action panel (SPEC §2). */
export function ListingDetailPage() {
  const { listingId = '' } = useParams();
  const user = useAppSelector((state) => state.session.user);
  // A page that sent the seller here says what it did (/verify/ga4: Google Analytics connected).
  const notice = noticeOf(useLocation().state);
  // The server's answer (kept up to PAGE_CACHE_MS, and a bid reaches listings-service after its event) shows at once;
  // the browser asks again on mount so the price and the minimum bid are this moment's (ADR 0072).
  const { data: listing, error, isLoading, refetch } = useListingQuery(listingId, { refetchOnMountOrArgChange: !RENDERING_ON_SERVER });
  // Live only once the listing exists: a missing one has no feed to follow.
  const { extendedUntil } = useLiveListing(listingId, listing !== undefined);
  const notFound = !listing && !isLoading && (!error || NOT_FOUND_STATUSES.includes((error as { status?: unknown }).status));
  usePageMeta({
    title: listing?.title ?? (notFound ? 'Listing not found' : 'Listing'),
    description: listing?.description.slice(0, 160),
    image: listing?.screenshots?.[0],
    type: 'article',
    url: `/listing/${encodeURIComponent(listingId)}`,
    jsonLd: useMemo(() => (listing ? (origin: string) => listingStructuredData(listing, origin) : undefined), [listing]),
    // A listing that is not there answers 404 and stays out of search results (ADR 0072).
    ...(notFound ? { status: 404, noindex: true } : {}),
  });

  useEffect(() => {
    if (error) console.error('Error loading listing', error);
  }, [error]);

  if (isLoading) {
    return (
      <Centered>
        <div role="status">
          <div className="spinner" aria-hidden="true" />
          Loading listing...
        </div>
      </Centered>
    );
  }
  if (!listing) {
    return (
      <Centered>
        <h1>{notFound ? 'Listing not found' : 'This listing could not be loaded'}</h1>
        <p className="muted">
          {notFound ? 'This listing does not exist or is no longer available.' : 'Please check your connection and try again.'}
        </p>
        <div className="detail-not-found-actions">
          {!notFound && (
            <button type="button" className="btn btn-secondary" onClick={() => refetch()}>
              Try again
            </button>
          )}
          <Link className="btn btn-primary" to="/browse">
            Browse listings
          </Link>
        </div>
      </Centered>
    );
  }

  return (
    <div className="container section listing-detail">
      <nav className="detail-back" aria-label="Breadcrumb">
        <Link to="/browse">← Back to browse</Link>
      </nav>
      <header className="detail-header">
        <Badges listing={listing} />
        <h1>{listing.title}</h1>
        <a className="detail-url" href={listing.website_url} target="_blank" rel="noopener noreferrer nofollow">
          {listing.website_url.replace(/^https?:\/\//, '')}
        </a>
      </header>
      {notice && (
        <p className="alert alert-success detail-notice" role="status">
          {notice}
        </p>
      )}
      {listing.status === 'sold' && (
        <div className="alert alert-warning detail-sold" role="status">
          <strong>SOLD</strong> This website has been sold and is no longer available.
        </div>
      )}
      <div className="detail-layout">
        <div className="detail-main">
          <ScreenshotGallery title={listing.title} screenshots={listing.screenshots} category={listing.category} />
          <Metrics listing={listing} />
          <VerifiedFigures verification={listing.verification} />
          <ListingTabs listing={listing} />
        </div>
        <aside className="detail-side">
          <ActionPanel listing={listing} extendedUntil={extendedUntil} />
          {user?.id === listing.seller_id && <OwnershipPanel listing={listing} />}
          {user?.id === listing.seller_id && <VerificationPanel listing={listing} />}
          {listing.listing_type === 'auction' && <BidHistory listingId={listing.id} />}
          {listing.seller && <SellerCard seller={listing.seller} />}
        </aside>
      </div>
    </div>
  );
}
