import type { ReactNode } from 'react';
import type { PlaceBidResponse } from '@market/contracts';
import type { BidCheck } from './bid-form';
import type { BidOutcome } from './max-bid';
import { BidOutcomeNote, CardNote } from './CardNote';
import { DollarField } from './DollarField';
import { MaxBidField } from './MaxBidField';
import type { FormMessageState } from './use-form-message';
import { useAmountForm } from './use-amount-form';

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

/** One amount posted to POST /api/bids: a bid on an auction, an offer on a fixed price (the server tells them apart). */
export function AmountForm(props: AmountFormProps) {
  const { listingId, formLabel, fieldLabel, intro, min, max, check, withMaximum = false, submitLabel, busyLabel, outcome, cardLimit, notice, onPlaced } = props;
  const { message, isLoading, typed, typedMax, fieldError, maxError, submit, setTyped, setTypedMax, setFieldError, setMaxError } = useAmountForm({
    listingId,
    check,
    withMaximum,
    outcome,
    notice,
    onPlaced,
  });

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
      {message && <BidOutcomeNote message={message} large={large} />}
    </form>
  );
}
