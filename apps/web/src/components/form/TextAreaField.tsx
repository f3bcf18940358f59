import type { TextareaHTMLAttributes } from 'react';
import { FieldLabel, type BaseFieldProps } from './FieldLabel';
import './form-fields.css';

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value' | 'name'> & BaseFieldProps;

/** A labelled text area with its validation message. */
export function TextAreaField({ label, error, onChange, requiredMark, rows = 3, ...area }: TextAreaFieldProps) {
  return (
    <label className="field">
      <FieldLabel label={label} requiredMark={requiredMark} />
      <textarea rows={rows} {...area} onChange={(e) => onChange(e.target.value)} aria-invalid={Boolean(error)} />
      {error && <small className="field-error">{error}</small>}
    </label>
  );
}
