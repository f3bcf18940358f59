import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ListingDto } from '@market/contracts';
import { formatDollars, minimumNextBid } from '@market/domain';
import { usePlaceBidMutation } from '../../api/bids.api';
import { errorDetail } from '../../lib/error-detail';
import { BID_SUCCESS, checkBidAmount, isSuccessMessage } from './bid-form';

const MESSAGE_MS = 4000;

/** The bid form of an open auction for a signed-in buyer: the minimum next bid (D6), the amount and Place Bid. */
export function BidForm({ listing }: { listing: Pick<ListingDto, 'id' | 'starting_price' | 'current_bid'> }) {
  const [placeBid, { isLoading }] = usePlaceBidMutation();
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  // A fresh object per outcome, so the same text twice in a row still restarts the timer.
  const [message, setMessage] = useState<{ text: string } | null>(null);
  const inputId = useId();
  const minimum = minimumNextBid(listing.starting_price, listing.current_bid);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = checkBidAmount(typed, minimum);
    if (!check.ok) {
      setFieldError(check.error);
      return;
    }
    setFieldError(null);
    setMessage(null);
    const result = await placeBid({ listing_id: listing.id, amount: check.amount });
    if ('error' in result) {
      setMessage({ text: errorDetail(result.error, 'Error placing bid') });
    } else {
      setTyped('');
      setMessage({ text: BID_SUCCESS });
    }
  };

  const success = message !== null && isSuccessMessage(message.text);
  return (
    // noValidate: the browser's own bubbles would hide our messages, which name the minimum as the server does.
    <form className="bid-form" onSubmit={submit} noValidate aria-label="Place a bid">
      <p className="bid-minimum" data-testid="minimum-bid">
        Minimum bid: <strong>{formatDollars(minimum)}</strong>
      </p>
      <div className="field bid-field">
        <label htmlFor={inputId}>Your bid</label>
        <div className="bid-input-row">
          <span className="bid-currency" aria-hidden="true">
            $
          </span>
          <input
            id={inputId}
            name="amount"
            type="number"
            inputMode="numeric"
            step={1}
            min={minimum}
            placeholder={String(minimum)}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              setFieldError(null);
            }}
            aria-invalid={fieldError !== null}
            aria-describedby={fieldError ? `${inputId}-error` : undefined}
          />
        </div>
        {fieldError && (
          <small id={`${inputId}-error`} className="field-error" role="alert">
            {fieldError}
          </small>
        )}
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
        {isLoading ? 'Placing bid...' : 'Place Bid'}
      </button>
      {message && (
        <div className={`alert ${success ? 'alert-success' : 'alert-error'} panel-notice`} role={success ? 'status' : 'alert'}>
          {message.text}
        </div>
      )}
    </form>
  );
}
