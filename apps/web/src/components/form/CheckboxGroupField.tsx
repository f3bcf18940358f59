import './form-fields.css';

interface CheckboxGroupFieldProps {
  legend: string;
  name: string;
  options: readonly string[];
  value: string[];
  onChange: (next: string[]) => void;
  error?: string;
}

/** A fieldset of checkboxes in a grid; the chosen values always come back in the options' order. */
export function CheckboxGroupField({ legend, name, options, value, onChange, error }: CheckboxGroupFieldProps) {
  const toggle = (option: string, checked: boolean) =>
    onChange(checked ? options.filter((o) => o === option || value.includes(o)) : value.filter((o) => o !== option));
  return (
    <fieldset className="form-fieldset">
      <legend>{legend}</legend>
      <div className="check-grid">
        {options.map((option) => (
          <label key={option} className="check-option">
            <input type="checkbox" name={name} value={option} checked={value.includes(option)} onChange={(e) => toggle(option, e.target.checked)} />
            <span>{option}</span>
          </label>
        ))}
      </div>
      {error && <small className="field-error">{error}</small>}
    </fieldset>
  );
}
