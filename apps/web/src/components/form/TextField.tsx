import type { InputHTMLAttributes, ReactNode } from 'react';
import { FieldLabel, type BaseFieldProps } from './FieldLabel';
import './form-fields.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'name'>, BaseFieldProps {
  /** Shown under the input and announced with it. */
  hint?: ReactNode;
}

/** A labelled input with its validation message, as every form of the app shows it. */
export function TextField({ label, error, onChange, hint, requiredMark, ...input }: TextFieldProps) {
  const hintId = hint ? `${input.name}-hint` : undefined;
  return (
    <label className="field">
      <FieldLabel label={label} requiredMark={requiredMark} />
      <input
        // Phones show the number pad with a decimal point for amounts.
        inputMode={input.type === 'number' ? 'decimal' : undefined}
        {...input}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={hintId}
      />
      {hint && (
        <small id={hintId} className="muted field-note">
          {hint}
        </small>
      )}
      {error && <small className="field-error">{error}</small>}
    </label>
  );
}
