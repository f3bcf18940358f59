import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface ModalDialogProps {
  /** The id its heading carries, for aria-labelledby. */
  titleId: string;
  title: string;
  onClose: () => void;
  className?: string;
  children: ReactNode;
}

/**
 * A modal over the page: Escape or a click outside closes it, Tab stays inside, and focus returns to the control that
 * opened it. The dialogs of the transfer checklist and the admin's dispute decision share it.
 */
export function ModalDialog({ titleId, title, onClose, className = '', children }: ModalDialogProps) {
  const dialog = useRef<HTMLDivElement>(null);
  // Read while rendering, before autoFocus moves focus inside: this is the control to give focus back to.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeRef.current();
      if (event.key !== 'Tab' || !dialog.current) return;
      const focusable = dialog.current.querySelectorAll<HTMLElement>('input, select, textarea, button:not([disabled])');
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [opener]);

  return (
    <div className="modal-backdrop" role="presentation" onClick={onClose}>
      <div ref={dialog} className={`modal card ${className}`} role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
