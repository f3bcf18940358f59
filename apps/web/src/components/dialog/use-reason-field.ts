import { useState } from 'react';
import type { ReasonDialogProps } from './ReasonDialog';

/** A required reason of a ReasonDialog (named `reason`, four rows): its text, its problem, and the field it shows. */
export function useReasonField(label: string, maxLength: number) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const field: ReasonDialogProps['reason'] = {
    label,
    name: 'reason',
    rows: 4,
    maxLength,
    value,
    error: problem ?? undefined,
    onChange: (next) => {
      setValue(next);
      setProblem(null);
    },
  };
  return { value, setProblem, field };
}
