import type { ListingDto } from '@market/contracts';
import { useSendMessage } from '../../api/messages.api';
import { ComposeMessageDialog } from '../../components/messages/ComposeMessageDialog';
import { contactSellerDraft, escrowDraft } from '../../components/messages/compose-message';

/** The contact-seller modal (SPEC §2): to the listing's seller, the listing title in subject and message. */
export function ContactSellerDialog({ listing, about, onClose }: { listing: ListingDto; about: 'contact' | 'escrow'; onClose: () => void }) {
  const sender = useSendMessage();
  return (
    <ComposeMessageDialog
      title="Contact Seller"
      to={{ id: listing.seller_id, username: listing.seller?.username ?? 'the seller' }}
      listingId={listing.id}
      initial={about === 'escrow' ? escrowDraft(listing.title) : contactSellerDraft(listing.title)}
      onClose={onClose}
      {...sender}
    />
  );
}
