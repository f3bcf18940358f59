import type { ListingDto } from '@market/contracts';

/**
 * What an edit of an approved listing does (ADR 0042): with bids, the reviewed fields are locked; without, changing them
 * sends the listing back to review. A listing never approved says nothing.
 */
export function ReviewedFieldsNotice({ listing, locked }: { listing: ListingDto; locked: boolean }) {
  if (locked) {
    return (
      <div className="alert alert-info reviewed-fields-notice" role="note">
        This listing has bids, so its title, website address, category, description, financials and prices are locked: bidders committed to
        them. You can still change its details, screenshots and status. Contact support if something is wrong.
      </div>
    );
  }
  if (!listing.approved_at || listing.status === 'sold' || listing.status === 'cancelled') return null;
  return (
    <div className="alert alert-info reviewed-fields-notice" role="note">
      Changing the title, website address, category, description, financials or prices sends this listing back to review: it leaves the
      marketplace until an admin approves the change. Details and screenshots change at once.
    </div>
  );
}
