import { useId } from 'react';
import { MAX_BID_RULE } from './max-bid';

export interface MaxBidFieldProps {
  value: string;
  /** The message under the field, or null. */
  error: string | null;
  /** The least a maximum may be right now: the minimum next bid (a maximum is at least the bid). */
  min: number;
  onChange: (typed: string) => void;
}

/** "Bid up to" on an automatic auction's bid form (proxy bidding, ADR 0055): optional, with its rule in one sentence. */
export function MaxBidField({ value, error, min, onChange }: MaxBidFieldProps) {
  const inputId = useId();
  const ruleId = `${inputId}-rule`;
  const errorId = `${inputId}-error`;
  return (
    <div className="field bid-field">
      <label htmlFor={inputId}>
        Bid up to <span className="field-note muted">(optional)</span>
      </label>
      <div className="bid-input-row">
        <span className="bid-currency" aria-hidden="true">
          $
        </span>
        <input
          id={inputId}
          name="max_amount"
          type="number"
          inputMode="numeric"
          step={1}
          min={min}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error !== null}
          aria-describedby={error ? `${errorId} ${ruleId}` : ruleId}
        />
      </div>
      {error && (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      )}
      <small id={ruleId} className="muted bid-rule">
        {MAX_BID_RULE}
      </small>
    </div>
  );
}
