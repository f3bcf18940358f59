import type { SaleReviewStateDto } from '@market/contracts';
import { ReviewItem } from '../../components/reviews/ReviewItem';
import { displayName } from '../../components/reviews/review-format';
import { reviewStatusLine } from './review-form';

interface InvoiceReviewProps {
  sale: SaleReviewStateDto;
  onReview: () => void;
  now?: Date;
}

/**
 * A paid-out sale's reviews on its invoice row (D23): "Leave a review" while the caller may, "Reviewed" once they
 * have, and the other party's review of them once it shows.
 */
export function InvoiceReview({ sale, onReview, now }: InvoiceReviewProps) {
  const line = reviewStatusLine(sale, now);
  return (
    <div className="invoice-review" data-testid="invoice-review">
      <div className="invoice-review-head">
        {sale.can_review && (
          <button type="button" className="btn btn-secondary btn-tiny" aria-label={`Leave a review of ${displayName(sale.other_party)} for ${sale.invoice_number}`} onClick={onReview}>
            Leave a review
          </button>
        )}
        {sale.mine && <span className="badge badge-green">Reviewed</span>}
        {line && <span className="muted">{line}</span>}
      </div>
      {sale.theirs && (
        <div className="invoice-review-theirs">
          <p className="invoice-review-title">{displayName(sale.other_party)}&apos;s review of you</p>
          <ReviewItem review={sale.theirs} as="div" />
        </div>
      )}
    </div>
  );
}
