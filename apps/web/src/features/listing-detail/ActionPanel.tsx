import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ListingDto } from '@market/contracts';
import { formatDollars, timeRemainingLabel } from '@market/domain';
import { useAppSelector } from '../../lib/store-hooks';
import { useAddToWatchlistMutation } from '../../api/listings.api';
import { useCommitRefusal } from '../../api/use-commit-refusal';
import { VerifyEmailNotice } from '../../components/account/VerifyEmailNotice';
import { useResendVerification } from '../../api/verification.api';
import { BidForm, OfferForm } from './BidForm';
import { BuyNowDialog, BuyNowNotice } from './BuyNowDialog';
import { formatBidTime } from './bid-form';
import { ACTION_LABELS, planActions, watchlistMessage, type PanelAction } from './listing-actions';
import { useBuyNow } from './use-buy-now';

const MESSAGE_MS = 4000;
// Loaded when a buyer first opens it: most visitors never contact the seller.
const ContactSellerDialog = lazy(() => import('./ContactSellerDialog').then((m) => ({ default: m.ContactSellerDialog })));

/** The actions a signed-in buyer does in a form right in the panel; guests get their buttons, which lead to /login. */
type FormAction = 'place_bid' | 'make_offer';
const isFormAction = (action: PanelAction | 'contact'): action is FormAction => action === 'place_bid' || action === 'make_offer';

/**
 * Prices, reserve, time left and the buttons: guests go to /login; buy now (D4) and the watchlist work; the seller
 * gets Edit.
 * extendedUntil: the new end when a live soft close (D9) moved it while the page was open.
 */
export function ActionPanel({ listing, extendedUntil = null }: { listing: ListingDto; extendedUntil?: string | null }) {
  const user = useAppSelector((state) => state.session.user);
  const navigate = useNavigate();
  const [addToWatchlist, { isLoading: adding }] = useAddToWatchlistMutation();
  const [contacting, setContacting] = useState<'contact' | 'escrow' | null>(null);
  const verification = useResendVerification();
  const [watchMessage, setWatchMessage] = useState<{ text: string; success: boolean } | null>(null);
  const purchase = useBuyNow(listing.id);

  useEffect(() => {
    if (!watchMessage) return;
    const timer = setTimeout(() => setWatchMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [watchMessage]);

  const plan = planActions(listing, user);
  const auction = listing.listing_type === 'auction';
  // A member whose email is not verified is told so before trying, in place of the bid, offer and buy-now (ADR 0037).
  const mustVerify = useCommitRefusal(auction ? 'bid' : plan.actions.includes('buy_now') ? 'buy' : 'offer');
  const committing = plan.showBuyerActions && mustVerify === null;
  // Guests keep the Place Bid / Make an offer buttons, which lead to /login; a signed-in buyer bids or offers right here.
  const bidHere = user !== null && committing && plan.actions.includes('place_bid');
  const offerHere = user !== null && committing && plan.actions.includes('make_offer');
  const buttons = user === null ? plan.actions : plan.actions.filter((action) => !isFormAction(action) && (committing || action !== 'buy_now'));
  const remaining = auction && listing.status === 'active' ? timeRemainingLabel(listing.expires_at) : null;

  const act = (action: PanelAction | 'contact') => {
    if (!user) navigate('/login');
    else if (action === 'buy_now') purchase.ask();
    else if (action === 'contact' || action === 'escrow') setContacting(action);
  };
  const watch = async () => {
    if (!user) {
      navigate('/login');
      return;
    }
    const result = await addToWatchlist(listing.id);
    setWatchMessage(watchlistMessage('error' in result ? { ok: false, status: (result.error as { status?: unknown }).status } : { ok: true }));
  };

  return (
    <section className="card action-panel" aria-label="Buy this website">
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
          {remaining}
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

      {bidHere && <BidForm listing={listing} />}
      {offerHere && <OfferForm listing={listing} />}
      {user !== null && plan.showBuyerActions && mustVerify && plan.actions.length > 0 && <VerifyEmailNotice reason={mustVerify} {...verification} />}

      <div className="panel-buttons">
        {plan.canEdit && (
          <Link className="btn btn-primary btn-block" to={`/edit-listing/${listing.id}`}>
            Edit listing
          </Link>
        )}
        {plan.showBuyerActions && (
          <>
            {buttons.map((action) => (
              <button
                key={action}
                type="button"
                className={`btn btn-block ${action === buttons[0] && !bidHere && !offerHere ? 'btn-primary' : 'btn-secondary'}`}
                onClick={() => act(action)}
                disabled={action === 'buy_now' && (purchase.busy || purchase.bought)}
              >
                {action === 'buy_now' && purchase.busy ? 'Processing purchase...' : ACTION_LABELS[action]}
              </button>
            ))}
            <button type="button" className="btn btn-secondary btn-block" onClick={() => act('contact')}>
              Contact Seller
            </button>
          </>
        )}
        <button type="button" className="btn btn-ghost btn-block" onClick={watch} disabled={adding}>
          {adding ? 'Adding...' : 'Add to Watchlist'}
        </button>
      </div>
      {purchase.outcome && <BuyNowNotice outcome={purchase.outcome} />}
      {watchMessage && (
        <div className={`alert ${watchMessage.success ? 'alert-success' : 'alert-error'} panel-notice`} role={watchMessage.success ? 'status' : 'alert'}>
          {watchMessage.text}
        </div>
      )}
      {plan.purchasePrice !== null && plan.purchasePrice >= 5000 && plan.showBuyerActions && (
        <p className="muted panel-small">Purchases from $5,000 are completed through escrow arranged with the seller.</p>
      )}
      {contacting && (
        <Suspense fallback={null}>
          <ContactSellerDialog listing={listing} about={contacting} onClose={() => setContacting(null)} />
        </Suspense>
      )}
      {purchase.confirming && plan.purchasePrice !== null && (
        <BuyNowDialog title={listing.title} price={plan.purchasePrice} busy={purchase.busy} onConfirm={purchase.confirm} onCancel={purchase.cancel} />
      )}
    </section>
  );
}
