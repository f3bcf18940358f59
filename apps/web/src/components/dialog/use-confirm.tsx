import { useCallback, useRef, useState, type ReactNode } from 'react';
import { ModalDialog } from './ModalDialog';

/** What a confirmation asks: its title (the dialog's name), its text (paragraphs split on blank lines), its button. */
export interface ConfirmRequest {
  title: string;
  text: string;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
}

/**
 * An accessible stand-in for window.confirm: `ask` opens a modal (focus kept inside, Escape or Cancel answers false)
 * and resolves with the answer; render `dialog` where the page is. One question at a time.
 */
export function useConfirm(): { ask: (request: ConfirmRequest) => Promise<boolean>; dialog: ReactNode } {
  const [pending, setPending] = useState<ConfirmRequest | null>(null);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);
  const settle = useCallback((confirmed: boolean) => {
    answer.current?.(confirmed);
    answer.current = null;
    setPending(null);
  }, []);
  const ask = useCallback((request: ConfirmRequest) => {
    answer.current?.(false);
    setPending(request);
    return new Promise<boolean>((resolve) => (answer.current = resolve));
  }, []);
  const dialog = pending && (
    <ModalDialog titleId="confirm-title" title={pending.title} onClose={() => settle(false)} className="confirm-dialog">
      {pending.text.split(/\n\s*\n/).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <div className="dialog-buttons">
        <button type="button" className={`btn btn-${pending.tone ?? 'primary'}`} onClick={() => settle(true)} autoFocus>
          {pending.confirmLabel}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => settle(false)}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
  return { ask, dialog };
}
