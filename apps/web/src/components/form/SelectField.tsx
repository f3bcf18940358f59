import type { ReactNode, SelectHTMLAttributes } from 'react';
import { FieldLabel, type BaseFieldProps } from './FieldLabel';
import './form-fields.css';

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value' | 'name'>, BaseFieldProps {
  /** The <option>s. */
  children: ReactNode;
}

/** A labelled select with its validation message. */
export function SelectField({ label, error, onChange, requiredMark, children, ...select }: SelectFieldProps) {
  return (
    <label className="field">
      <FieldLabel label={label} requiredMark={requiredMark} />
      <select {...select} onChange={(e) => onChange(e.target.value)} aria-invalid={Boolean(error)}>
        {children}
      </select>
      {error && <small className="field-error">{error}</small>}
    </label>
  );
}
