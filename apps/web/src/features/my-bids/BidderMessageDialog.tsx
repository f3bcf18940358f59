import { useEffect, useState, type FormEvent } from 'react';
import type { UserBidRow } from '@market/contracts';
import { TextAreaField } from '../../components/form/TextAreaField';
import { TextField } from '../../components/form/TextField';
import { MESSAGING_SOON, messageDraft } from './my-bids';

type DialogRow = Pick<UserBidRow, 'kind' | 'amount' | 'listing_title' | 'bidder_username'>;

/**
 * The seller's compose dialog to a bidder, prefilled (SPEC §2). Messaging has no API yet (issue 7): the draft is fully
 * editable, but Send stays disabled and the dialog says the draft is not sent, rather than pretending to send it.
 */
export function BidderMessageDialog({ row, onClose }: { row: DialogRow; onClose: () => void }) {
  const [draft, setDraft] = useState(() => messageDraft(row));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const submit = (event: FormEvent) => event.preventDefault();

  return (
    <div className="modal-backdrop" role="presentation" onClick={onClose}>
      <div className="modal card bidder-message" role="dialog" aria-modal="true" aria-labelledby="bidder-message-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="bidder-message-title">Message {row.bidder_username}</h2>
        <form onSubmit={submit} noValidate>
          <p className="muted bidder-message-to">
            To: <strong>{row.bidder_username}</strong>
          </p>
          <TextField label="Subject" name="subject" value={draft.subject} onChange={(subject) => setDraft((d) => ({ ...d, subject }))} />
          <TextAreaField label="Message" name="content" rows={8} value={draft.body} onChange={(body) => setDraft((d) => ({ ...d, body }))} autoFocus />
          <p id="bidder-message-soon" className="alert alert-info bidder-message-soon" role="note">
            {MESSAGING_SOON}
          </p>
          <div className="bidder-message-buttons">
            <button type="submit" className="btn btn-primary" disabled aria-describedby="bidder-message-soon">
              Send
            </button>
            <button type="button" className="btn btn-ghost" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
