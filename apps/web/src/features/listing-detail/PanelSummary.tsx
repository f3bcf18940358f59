import type { ListingDto } from '@market/contracts';
import { formatDollars, timeRemainingLabel } from '@market/domain';
import { useBidTime } from './bid-form';
import { useInBrowser } from '../../lib/use-in-browser';
import type { PanelPlan } from './listing-actions';

/**
 * The top of the action panel: the price and bids, the buy-now price and reserve of an auction, the time left, a soft
 * close's new end (D9), and why a listing takes nothing (ended, cancelled, not public yet).
 */
export function PanelSummary({ listing, plan, extendedUntil }: { listing: ListingDto; plan: Pick<PanelPlan, 'price' | 'priceLabel' | 'purchasePrice'>; extendedUntil: string | null }) {
  const auction = listing.listing_type === 'auction';
  const remaining = auction && listing.status === 'active' ? timeRemainingLabel(listing.expires_at) : null;
  const formatBidTime = useBidTime();
  // The time left depends on the clock: counted in the browser, a blank line of the same height before (ADR 0072).
  const inBrowser = useInBrowser();
  return (
    <>
      <div className="panel-price">
        <span className="muted">{plan.priceLabel}</span>
        <strong data-testid="panel-price">{formatDollars(plan.price)}</strong>
        {auction && (
          <span className="muted">
            {listing.bid_count} {listing.bid_count === 1 ? 'bid' : 'bids'}
          </span>
        )}
      </div>
      {auction && plan.purchasePrice !== null && (
        <p className="panel-line">
          Buy now price: <strong>{formatDollars(plan.purchasePrice)}</strong>
        </p>
      )}
      {auction && listing.has_reserve && (
        <p className="panel-line">
          <span className={`badge ${listing.reserve_met ? 'badge-green' : 'badge-gray'}`}>{listing.reserve_met ? 'Reserve met' : 'Reserve not met'}</span>
          {typeof listing.reserve_price === 'number' && (
            <span className="muted"> Reserve price: {formatDollars(listing.reserve_price)} (only you and admins see this)</span>
          )}
        </p>
      )}
      {remaining !== null && (
        <p className="panel-days" data-testid="days-remaining">
          {inBrowser ? remaining : '\u00a0'}
        </p>
      )}
      {remaining !== null && listing.expires_at && (
        <p className="panel-line muted" data-testid="auction-ends">
          Ends {formatBidTime(listing.expires_at)}
        </p>
      )}
      {extendedUntil && listing.status === 'active' && (
        <div className="alert alert-warning panel-notice" role="status" data-testid="auction-extended">
          Auction extended: now ends {formatBidTime(extendedUntil)}
        </div>
      )}

      {listing.status === 'expired' && <div className="alert alert-info">This listing has ended.</div>}
      {listing.status === 'cancelled' && <div className="alert alert-info">Site Market cancelled this listing. Its bids are void; bidders were emailed why.</div>}
      {(listing.status === 'pending' || listing.status === 'paused' || listing.status === 'draft') && (
        <div className="alert alert-info">Only you and admins can see this listing while it is {listing.status === 'pending' ? 'pending review' : listing.status}.</div>
      )}
    </>
  );
}
