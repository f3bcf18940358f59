import type { FormEvent, ReactNode } from 'react';
import { TextAreaField } from '../form/TextAreaField';
import { ModalDialog } from './ModalDialog';

export interface ReasonDialogProps {
  titleId: string;
  title: string;
  className: string;
  onClose: () => void;
  /** What the act does, above the form. */
  intro: ReactNode;
  /** The text the people concerned will read (a reason, a note, a description), required. */
  reason: { label: string; name: string; rows: number; maxLength: number; value: string; error?: string; onChange: (value: string) => void };
  /** Fields before and after the text (a choice of action, a checkbox, a count). */
  before?: ReactNode;
  after?: ReactNode;
  /** Why the last try failed, said to screen readers at once. */
  failure: string | null;
  submit: { label: string; busyLabel: string; busy: boolean; tone: 'danger' | 'primary' };
  /** The button that closes without acting. */
  keepLabel: string;
  onSubmit: (event: FormEvent) => void;
}

/**
 * A modal that confirms an act with a required text for the people it concerns: cancelling a listing or a sale,
 * deciding or opening a dispute. The dialogs keep their own checks and calls; this is the form they share.
 */
export function ReasonDialog({ titleId, title, className, onClose, intro, reason, before, after, failure, submit, keepLabel, onSubmit }: ReasonDialogProps) {
  return (
    <ModalDialog titleId={titleId} title={title} onClose={onClose} className={className}>
      {intro}
      <form onSubmit={onSubmit} noValidate>
        {before}
        <TextAreaField
          label={reason.label}
          name={reason.name}
          rows={reason.rows}
          maxLength={reason.maxLength}
          value={reason.value}
          error={reason.error}
          onChange={reason.onChange}
          required
        />
        {after}
        {failure && (
          <p className="alert alert-error" role="alert">
            {failure}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="submit" className={`btn btn-${submit.tone}`} disabled={submit.busy}>
            {submit.busy ? submit.busyLabel : submit.label}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {keepLabel}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
