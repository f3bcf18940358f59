import { useRef, useState } from 'react';
import type { FieldErrors, ListingFormValues } from './listing-form';

/**
 * The sell and edit forms' values and field errors: changing a field clears its error; focusFirstInvalid takes the
 * seller to the first field that needs fixing after a failed check (once it has rendered); formRef goes on the form.
 */
export function useListingFormState(initial: () => ListingFormValues) {
  const [values, setValues] = useState<ListingFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const set = <K extends keyof ListingFormValues>(field: K, value: ListingFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };
  const focusFirstInvalid = () => setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);

  return { values, setValues, set, errors, setErrors, formRef, focusFirstInvalid };
}
