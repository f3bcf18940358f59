import { useId, type ReactNode } from 'react';

export interface DollarFieldProps {
  label: ReactNode;
  /** The form field's name (`amount`, `max_amount`). */
  name: string;
  value: string;
  /** The message under the field, or null. */
  error: string | null;
  min: number;
  max?: number;
  placeholder?: string;
  /** The rule under the field, in one sentence; the input is described by it. */
  rule?: string;
  onChange: (typed: string) => void;
  /** Shown under the field's messages (the card note of a large bid). */
  children?: ReactNode;
}

/** A whole-dollar amount field of the bid forms: the bid, "Bid up to" and "Raise your maximum" share its markup. */
export function DollarField({ label, name, value, error, min, max, placeholder, rule, onChange, children }: DollarFieldProps) {
  const inputId = useId();
  const ruleId = `${inputId}-rule`;
  const errorId = `${inputId}-error`;
  const describedBy = [error ? errorId : null, rule ? ruleId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field bid-field">
      <label htmlFor={inputId}>{label}</label>
      <div className="bid-input-row">
        <span className="bid-currency" aria-hidden="true">
          $
        </span>
        <input
          id={inputId}
          name={name}
          type="number"
          inputMode="numeric"
          step={1}
          min={min}
          max={max}
          placeholder={placeholder}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error !== null}
          aria-describedby={describedBy}
        />
      </div>
      {error && (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      )}
      {rule && (
        <small id={ruleId} className="muted bid-rule">
          {rule}
        </small>
      )}
      {children}
    </div>
  );
}
