import type { ListingDto } from '@market/contracts';
import { askingPrice, formatDollars } from '@market/domain';
import { checkOfferAmount, OFFER_SUCCESS } from './bid-form';
import { AmountForm } from './AmountForm';
import { useFormMessage } from './use-form-message';

/**
 * The offer form of a fixed-price listing from 5000 up for a signed-in buyer (D4, D5): any whole amount up to the
 * asking price; the seller accepts or rejects it from their dashboard. Offers are private and move no price.
 */
export function OfferForm({ listing }: { listing: Pick<ListingDto, 'id' | 'starting_price' | 'buy_now_price'> }) {
  const asking = askingPrice(listing);
  const notice = useFormMessage();
  return (
    <AmountForm
      listingId={listing.id}
      formLabel="Make an offer"
      fieldLabel="Your offer"
      intro={
        <p className="bid-minimum" data-testid="offer-intro">
          Offer up to <strong>{formatDollars(asking)}</strong>. Your offer goes privately to the seller, who accepts or rejects it.
        </p>
      }
      min={1}
      max={asking}
      check={(typed) => checkOfferAmount(typed, asking)}
      submitLabel="Make an offer"
      busyLabel="Sending offer..."
      outcome={() => ({ text: OFFER_SUCCESS, tone: 'success', lasting: false })}
      notice={notice}
    />
  );
}
