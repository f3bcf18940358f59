import { useEffect, useRef, useState } from 'react';
import type { ListingDto } from '@market/contracts';
import { formatDollars, largeBidThreshold, minimumNextBid } from '@market/domain';
import { checkBidAmount } from './bid-form';
import { bidOutcome, offersMaxBid } from './max-bid';
import { AmountForm } from './AmountForm';
import { ONLY_YOU_SEE_IT, RaiseMaxForm } from './RaiseMaxForm';
import { useFormMessage } from './use-form-message';
import { useMyStanding } from './use-my-standing';

/**
 * The bid form of an open auction for a signed-in buyer: the minimum next bid (D6), the amount, "Bid up to" on an
 * automatic auction (proxy bidding, ADR 0055) and Place Bid. The leader with a maximum sees it and may raise it
 * instead (ADR 0060); where the viewer stands comes from their own standing on this listing, asked again when the
 * price moves only if they have a stake there.
 */
export function BidForm({ listing }: { listing: Pick<ListingDto, 'id' | 'starting_price' | 'current_bid' | 'listing_type' | 'auction_type'> }) {
  const minimum = minimumNextBid(listing.starting_price, listing.current_bid);
  const proxy = offersMaxBid(listing);
  const price = listing.current_bid;
  const [placedHere, setPlacedHere] = useState(false);
  const standing = useMyStanding(listing.id, proxy, price, placedHere);
  const notice = useFormMessage();
  const { setMessage } = notice;
  const leading = standing?.leading ?? null;
  const wasLeading = useRef(leading);
  useEffect(() => {
    // "You lead" must not outlive the lead: once passed, the old outcome goes and the form says where they stand.
    if (wasLeading.current === true && leading === false) setMessage(null);
    wasLeading.current = leading;
  }, [leading, setMessage]);

  if (standing?.leading && standing.max_amount !== null && price !== null) {
    return <RaiseMaxForm listingId={listing.id} currentBid={price} currentMax={standing.max_amount} cardLimit={largeBidThreshold(minimum)} notice={notice} />;
  }
  return (
    <AmountForm
      listingId={listing.id}
      formLabel="Place a bid"
      fieldLabel="Your bid"
      intro={
        <>
          <p className="bid-minimum" data-testid="minimum-bid">
            Minimum bid: <strong>{formatDollars(minimum)}</strong>
          </p>
          {standing?.leading && (
            <p className="panel-small bid-leading" data-testid="leading-note">
              You&apos;re the highest bidder.
            </p>
          )}
          {standing?.max_passed && standing.max_amount !== null && (
            <p className="panel-small bid-passed" data-testid="maximum-passed">
              Your maximum of {formatDollars(standing.max_amount)} was passed ({ONLY_YOU_SEE_IT}).
            </p>
          )}
        </>
      }
      min={minimum}
      cardLimit={largeBidThreshold(minimum)}
      check={(typed) => checkBidAmount(typed, minimum)}
      withMaximum={proxy}
      submitLabel="Place Bid"
      busyLabel="Placing bid..."
      outcome={bidOutcome}
      onPlaced={() => setPlacedHere(true)}
      notice={notice}
    />
  );
}
