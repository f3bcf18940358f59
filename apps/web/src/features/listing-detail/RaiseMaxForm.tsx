import { useState, type FormEvent } from 'react';
import { formatDollars } from '@market/domain';
import { usePlaceBidMutation } from '../../api/bids.api';
import { errorDetail } from '../../lib/error-detail';
import { BidOutcomeNote, CardNote } from './CardNote';
import { DollarField } from './DollarField';
import { checkRaiseMaximum, raiseOutcome } from './raise-max';
import type { FormMessageState } from './use-form-message';

/** The leading note's hint: the maximum is private (ADR 0055). */
export const ONLY_YOU_SEE_IT = 'only you see it';

/** The rule under "New maximum": raising it alone bids nothing (ADR 0055). */
export const RAISE_RULE = 'Raising your maximum places no bid: the price moves only when another bidder (or the reserve) makes it.';

export interface RaiseMaxFormProps {
  listingId: string;
  currentBid: number;
  /** The maximum the viewer holds now; shown to them only. */
  currentMax: number;
  /** Above this a verified card is needed (ADR 0041): a maximum commits the bidder as a bid does. */
  cardLimit: number;
  /** The message under the form, held by the bid form so a bid's outcome outlives the switch to this form. */
  notice: FormMessageState;
}

/**
 * The bid form's face for the leader with a maximum (ADR 0060): they lead, see their own maximum, and may raise it
 * without bidding against themselves. The API takes an amount below the minimum with a higher max_amount from the
 * leader as "raise my maximum" (ADR 0055).
 */
export function RaiseMaxForm({ listingId, currentBid, currentMax, cardLimit, notice }: RaiseMaxFormProps) {
  const { message, setMessage } = notice;
  const [placeBid, { isLoading }] = usePlaceBidMutation();
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkRaiseMaximum(typed, listingId, currentBid, currentMax);
    if (!checked.ok) {
      setFieldError(checked.error);
      return;
    }
    setFieldError(null);
    setMessage(null);
    const result = await placeBid(checked.body);
    if ('error' in result) {
      setMessage({ text: errorDetail(result.error, 'Error raising your maximum'), tone: 'error', lasting: false });
    } else {
      setTyped('');
      setMessage(raiseOutcome(result.data));
    }
  };

  const typedAmount = Number(typed);
  const large = Number.isFinite(typedAmount) && typedAmount > cardLimit;
  return (
    <form className="bid-form" onSubmit={submit} noValidate aria-label="Raise your maximum">
      <p className="bid-leading" data-testid="leading-note">
        <span className="bid-leading-mark" aria-hidden="true">
          ✓
        </span>{' '}
        You&apos;re the highest bidder. Your maximum: <strong data-testid="my-maximum">{formatDollars(currentMax)}</strong>{' '}
        <span className="muted">({ONLY_YOU_SEE_IT})</span>
      </p>
      <DollarField
        label="Raise your maximum"
        name="max_amount"
        value={typed}
        error={fieldError}
        min={currentMax + 1}
        placeholder={String(currentMax + 1)}
        rule={RAISE_RULE}
        onChange={(value) => {
          setTyped(value);
          setFieldError(null);
        }}
      />
      {large && <CardNote limit={cardLimit} />}
      <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
        {isLoading ? 'Raising maximum...' : 'Raise maximum'}
      </button>
      {message && <BidOutcomeNote message={message} large={large} />}
    </form>
  );
}
