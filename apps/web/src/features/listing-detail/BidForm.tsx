import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ListingDto, PlaceBidResponse } from '@market/contracts';
import { askingPrice, formatDollars, largeBidThreshold, minimumNextBid } from '@market/domain';
import { usePlaceBidMutation } from '../../api/bids.api';
import { errorDetail } from '../../lib/error-detail';
import { checkBidAmount, checkOfferAmount, OFFER_SUCCESS, type BidCheck } from './bid-form';
import { bidOutcome, offersMaxBid, readAmountForm, type BidOutcome } from './max-bid';
import { CardNote, PAYMENT_METHOD_LINK } from './CardNote';
import { DollarField } from './DollarField';
import { MaxBidField } from './MaxBidField';
import { ONLY_YOU_SEE_IT, RaiseMaxForm } from './RaiseMaxForm';
import { useFormMessage, type FormMessageState } from './use-form-message';
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

interface AmountFormProps {
  listingId: string;
  formLabel: string;
  fieldLabel: string;
  intro: ReactNode;
  min: number;
  max?: number;
  check: (typed: string) => BidCheck;
  /** Offer the optional "Bid up to" (automatic auctions only, ADR 0055). */
  withMaximum?: boolean;
  submitLabel: string;
  busyLabel: string;
  /** What to say once the server accepted the amount. */
  outcome: (answer: PlaceBidResponse) => BidOutcome;
  /** Bids above this need a verified card on file (ADR 0041): the form says so and links to the profile. */
  cardLimit?: number;
  /** The message under the form, held by its owner (useFormMessage). */
  notice: FormMessageState;
  /** Told once the server took the amount: the viewer now has a stake in the listing (ADR 0060). */
  onPlaced?: () => void;
}

export { PAYMENT_METHOD_LINK } from './CardNote';

/** One amount posted to POST /api/bids: a bid on an auction, an offer on a fixed price (the server tells them apart). */
function AmountForm(props: AmountFormProps) {
  const { listingId, formLabel, fieldLabel, intro, min, max, check, withMaximum = false, submitLabel, busyLabel, outcome, cardLimit, notice, onPlaced } = props;
  const { message, setMessage } = notice;
  const [placeBid, { isLoading }] = usePlaceBidMutation();
  const [typed, setTyped] = useState('');
  const [typedMax, setTypedMax] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [maxError, setMaxError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readAmountForm(listingId, check(typed), withMaximum ? typedMax : null);
    setFieldError(read.amountError);
    setMaxError(read.maxError);
    if (!read.body) return;
    setMessage(null);
    const result = await placeBid(read.body);
    if ('error' in result) {
      setMessage({ text: errorDetail(result.error, 'Error placing bid'), tone: 'error', lasting: false });
    } else {
      setTyped('');
      setTypedMax('');
      setMessage(outcome(result.data));
      onPlaced?.();
    }
  };

  const success = message?.tone === 'success';
  const typedAmount = Math.max(Number(typed), withMaximum ? Number(typedMax) : 0);
  // A maximum commits the bidder up to it, so it needs the card a bid of that size would (ADR 0041).
  const large = cardLimit !== undefined && Number.isFinite(typedAmount) && typedAmount > cardLimit;
  return (
    // noValidate: the browser's own bubbles would hide our messages, which name the limits as the server does.
    <form className="bid-form" onSubmit={submit} noValidate aria-label={formLabel}>
      {intro}
      <DollarField
        label={fieldLabel}
        name="amount"
        value={typed}
        error={fieldError}
        min={min}
        max={max}
        placeholder={String(max ?? min)}
        onChange={(value) => {
          setTyped(value);
          setFieldError(null);
        }}
      >
        {!withMaximum && large && cardLimit !== undefined && <CardNote limit={cardLimit} />}
      </DollarField>
      {withMaximum && (
        <MaxBidField
          value={typedMax}
          error={maxError}
          min={min}
          onChange={(value) => {
            setTypedMax(value);
            setMaxError(null);
          }}
        />
      )}
      {withMaximum && large && cardLimit !== undefined && <CardNote limit={cardLimit} />}
      <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
        {isLoading ? busyLabel : submitLabel}
      </button>
      {message && (
        <div className={`alert alert-${message.tone} panel-notice`} role={success ? 'status' : 'alert'} data-testid="bid-outcome">
          {message.text}
          {message.tone === 'error' && large && (
            <>
              {' '}
              <Link to={PAYMENT_METHOD_LINK}>Go to Payment method</Link>
            </>
          )}
        </div>
      )}
    </form>
  );
}
