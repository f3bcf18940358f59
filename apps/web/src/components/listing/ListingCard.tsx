import { Link } from 'react-router-dom';
import type { ListingCardDto, ListingDto } from '@market/contracts';
import { formatDollars, formatTraffic, listingStatusLabel } from '@market/domain';
import { FigureBadges } from './FigureBadges';
import { VerifiedBadge } from './VerifiedBadge';
import './listing-card.css';

/** The price a card shows: the current bid once there is one, else the starting (or fixed) price. */
export function displayPrice(listing: Pick<ListingDto, 'current_bid' | 'starting_price'>): number {
  return listing.current_bid ?? listing.starting_price;
}

interface ListingCardProps {
  /** A browse card as the API gives it, or a whole listing made one with listingCard (ADR 0082). */
  listing: ListingCardDto;
  /** 'list' lays the card out as a wide row (browse list view). */
  layout?: 'grid' | 'list';
  /** Show the status badge (owner and admin views). */
  showStatus?: boolean;
  /** Extra actions under the card (edit, remove...). */
  children?: React.ReactNode;
  /** The first card a page shows: its screenshot is likely the page's largest paint, so it loads at once and first. */
  priority?: boolean;
}

/** One listing as a card: screenshot, title, category, price, revenue and traffic; links to /listing/{id}. */
export function ListingCard({ listing, layout = 'grid', showStatus = false, children, priority = false }: ListingCardProps) {
  const image = listing.screenshot;
  return (
    <article className={`listing-card listing-card-${layout}`} data-testid="listing-card">
      <Link to={`/listing/${listing.id}`} className="listing-card-media" aria-hidden="true" tabIndex={-1}>
        {image ? <img src={image} alt="" loading={priority ? 'eager' : 'lazy'} fetchPriority={priority ? 'high' : undefined} /> : <span className="listing-card-placeholder">{listing.category}</span>}
      </Link>
      <div className="listing-card-body">
        <div className="listing-card-badges">
          <span className="badge badge-blue">{listing.category}</span>
          <span className="badge badge-outline">{listing.listing_type === 'auction' ? 'Auction' : 'Fixed price'}</span>
          {listing.featured && <span className="badge badge-featured">Featured</span>}
          <VerifiedBadge verified={listing.ownership_verified} />
          <FigureBadges revenue={listing.revenue_verified} traffic={listing.traffic_verified} />
          {(showStatus || listing.status === 'sold') && <span className={`badge badge-status-${listing.status}`}>{listingStatusLabel(listing.status)}</span>}
        </div>
        <h3 className="listing-card-title">
          <Link to={`/listing/${listing.id}`}>{listing.title}</Link>
        </h3>
        {layout === 'list' && <p className="listing-card-excerpt">{listing.excerpt}</p>}
        <dl className="listing-card-metrics">
          <div>
            <dt>{listing.listing_type === 'auction' ? (listing.current_bid ? 'Current bid' : 'Starting bid') : 'Price'}</dt>
            <dd>{formatDollars(displayPrice(listing))}</dd>
          </div>
          <div>
            <dt>Revenue/mo</dt>
            <dd>{formatDollars(listing.monthly_revenue)}</dd>
          </div>
          <div>
            <dt>Traffic/mo</dt>
            <dd>{formatTraffic(listing.monthly_traffic)}</dd>
          </div>
        </dl>
        {children && <div className="listing-card-actions">{children}</div>}
      </div>
    </article>
  );
}
