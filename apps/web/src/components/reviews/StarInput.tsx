import { useId } from 'react';
import './reviews.css';

const VALUES = [1, 2, 3, 4, 5] as const;

/** The spoken name of one choice: "1 star", "4 stars". */
export const starChoiceLabel = (value: number) => `${value} ${value === 1 ? 'star' : 'stars'}`;

interface StarInputProps {
  legend: string;
  /** 0 while nothing is chosen. */
  value: number;
  onChange: (value: number) => void;
  error?: string;
}

/**
 * Choosing 1 to 5 stars: a group of native radio buttons drawn as stars, so the arrow keys move between them and a
 * screen reader announces "4 stars, 4 of 5". The stars up to the chosen (or hovered) one are filled.
 */
export function StarInput({ legend, value, onChange, error }: StarInputProps) {
  const name = useId();
  const errorId = `${name}-error`;
  return (
    <fieldset className="star-input" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      <div className="star-input-choices">
        {VALUES.map((choice) => (
          <label key={choice} className={`star-input-choice${choice <= value ? ' star-input-on' : ''}`}>
            <input type="radio" name={name} value={choice} checked={value === choice} onChange={() => onChange(choice)} aria-invalid={Boolean(error)} />
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">{starChoiceLabel(choice)}</span>
          </label>
        ))}
        <span className="star-input-value muted" aria-hidden="true">
          {value > 0 ? starChoiceLabel(value) : 'Choose'}
        </span>
      </div>
      {error && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
    </fieldset>
  );
}
