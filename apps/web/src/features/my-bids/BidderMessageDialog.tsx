import type { UserBidRow } from '@market/contracts';
import { useSendMessage } from '../../api/messages.api';
import { ComposeMessageDialog } from '../../components/messages/ComposeMessageDialog';
import { messageDraft } from './my-bids';

type DialogRow = Pick<UserBidRow, 'kind' | 'amount' | 'listing_id' | 'listing_title' | 'bidder_id' | 'bidder_username'>;

/** The seller's compose dialog to a bidder, prefilled with the SPEC §2 subject and body template. */
export function BidderMessageDialog({ row, onClose }: { row: DialogRow; onClose: () => void }) {
  const draft = messageDraft(row);
  const sender = useSendMessage();
  return (
    <ComposeMessageDialog
      title={`Message ${row.bidder_username}`}
      to={{ id: row.bidder_id, username: row.bidder_username }}
      listingId={row.listing_id}
      initial={{ subject: draft.subject, content: draft.body }}
      onClose={onClose}
      {...sender}
    />
  );
}
