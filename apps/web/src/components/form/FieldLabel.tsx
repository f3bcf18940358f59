/** What every labelled field of the shared form pieces takes. */
export interface BaseFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Shows the red star of a required field; the form's own checks enforce it. */
  requiredMark?: boolean;
}

/** A field's label text, with the red star of a required field. */
export function FieldLabel({ label, requiredMark }: Pick<BaseFieldProps, 'label' | 'requiredMark'>) {
  return (
    <span>
      {label}
      {requiredMark && <span className="required-mark"> *</span>}
    </span>
  );
}
