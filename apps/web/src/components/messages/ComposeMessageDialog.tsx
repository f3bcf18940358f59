import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MESSAGE_TEXTS, type SendMessage, type SendMessageResponse } from '@market/contracts';
import { TextAreaField } from '../form/TextAreaField';
import { TextField } from '../form/TextField';
import { sendFailureText, validateDraft, type DraftErrors, type MessageDraft } from './compose-message';
import './messages.css';

/** How long the dialog shows 'Message sent successfully!' before it closes itself. */
export const SENT_CLOSE_MS = 2000;

export interface ComposeMessageProps {
  title: string;
  to: { id: string; username: string };
  listingId: string | null;
  initial: MessageDraft;
  onClose: () => void;
  /** Sends it (the api's useSendMessage): the server's answer, or its error thrown. */
  send: (message: SendMessage) => Promise<SendMessageResponse>;
  sending: boolean;
}

/** A modal to write one message (SPEC §2): subject and message prefilled by the caller, SPEC §8 texts on send. */
export function ComposeMessageDialog({ title, to, listingId, initial, onClose, send, sending }: ComposeMessageProps) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  // Read while rendering, before autoFocus moves focus into the dialog: this is the control to give focus back to.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  // Parents pass a new onClose on every render (a live listing re-renders on each bid); reading it through a ref keeps
  // the effects below from re-running, which would pull focus out of the text being typed and restart the close timer.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  // Editing a field clears its message: a fixed field should not stay red until the next Send.
  const edit = (field: keyof MessageDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeRef.current();
      if (event.key !== 'Tab' || !dialog.current) return;
      // Keep keyboard focus inside the dialog while it is open.
      const focusable = dialog.current.querySelectorAll<HTMLElement>('input, textarea, button:not([disabled])');
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

  useEffect(() => {
    if (!result?.ok) return;
    const timer = setTimeout(() => closeRef.current(), SENT_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateDraft(draft);
    setErrors(found);
    setResult(null);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await send({ receiver_id: to.id, listing_id: listingId, subject: draft.subject.trim(), content: draft.content.trim() });
      setResult({ ok: true, text: answer.message || MESSAGE_TEXTS.sent });
    } catch (error) {
      setResult({ ok: false, text: sendFailureText(error) });
    }
  };

  return (
    <div className="modal-backdrop" role="presentation" onClick={onClose}>
      <div ref={dialog} className="modal card compose-message" role="dialog" aria-modal="true" aria-labelledby="compose-message-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="compose-message-title">{title}</h2>
        <form onSubmit={submit} noValidate>
          <p className="muted compose-message-to">
            To: <strong>{to.username}</strong>
          </p>
          <TextField label="Subject" name="subject" value={draft.subject} error={errors.subject} onChange={edit('subject')} required />
          <TextAreaField label="Message" name="content" rows={8} value={draft.content} error={errors.content} onChange={edit('content')} required autoFocus />
          {result && (
            <p className={`alert ${result.ok ? 'alert-success' : 'alert-error'}`} role={result.ok ? 'status' : 'alert'}>
              {result.text}
            </p>
          )}
          <div className="compose-message-buttons">
            <button type="submit" className="btn btn-primary" disabled={sending || result?.ok === true}>
              {sending ? 'Sending...' : 'Send Message'}
            </button>
            <button type="button" className="btn btn-ghost" onClick={onClose}>
              {result?.ok ? 'Close' : 'Cancel'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
