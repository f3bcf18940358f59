import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ListingDto } from '@market/contracts';
import { useAppSelector } from '../../lib/store-hooks';
import { useCommitRefusal } from '../../api/use-commit-refusal';
import { VerifyEmailNotice } from '../../components/account/VerifyEmailNotice';
import { useResendVerification } from '../../api/verification.api';
import { BidForm } from './BidForm';
import { OfferForm } from './OfferForm';
import { BuyNowDialog, BuyNowNotice } from './BuyNowDialog';
import { ACTION_LABELS, planActions, type PanelAction } from './listing-actions';
import { PanelSummary } from './PanelSummary';
import { useWatchButton } from './use-watch-button';
import { useBuyNow } from './use-buy-now';

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
  const [contacting, setContacting] = useState<'contact' | 'escrow' | null>(null);
  const verification = useResendVerification();
  const purchase = useBuyNow(listing.id);
  const { watch, adding, watchMessage } = useWatchButton(listing.id, user !== null);

  const plan = planActions(listing, user);
  const auction = listing.listing_type === 'auction';
  // A member whose email is not verified is told so before trying, in place of the bid, offer and buy-now (ADR 0037).
  const mustVerify = useCommitRefusal(auction ? 'bid' : plan.actions.includes('buy_now') ? 'buy' : 'offer');
  const committing = plan.showBuyerActions && mustVerify === null;
  // Guests keep the Place Bid / Make an offer buttons, which lead to /login; a signed-in buyer bids or offers right here.
  const bidHere = user !== null && committing && plan.actions.includes('place_bid');
  const offerHere = user !== null && committing && plan.actions.includes('make_offer');
  const buttons = user === null ? plan.actions : plan.actions.filter((action) => !isFormAction(action) && (committing || action !== 'buy_now'));

  const act = (action: PanelAction | 'contact') => {
    if (!user) navigate('/login');
    else if (action === 'buy_now') purchase.ask();
    else if (action === 'contact' || action === 'escrow') setContacting(action);
  };

  return (
    <section className="card action-panel" aria-label="Buy this website">
      <PanelSummary listing={listing} plan={plan} extendedUntil={extendedUntil} />

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
