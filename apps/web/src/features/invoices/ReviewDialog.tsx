import { useState, type FormEvent } from 'react';
import type { SaleReviewStateDto } from '@market/contracts';
import { REVIEW_TEXT_MAX } from '@market/domain';
import { ModalDialog } from '../../components/dialog/ModalDialog';
import { TextAreaField } from '../../components/form/TextAreaField';
import { StarInput } from '../../components/reviews/StarInput';
import { displayName, reviewDay } from '../../components/reviews/review-format';
import { useCreateReviewMutation } from '../../api/reviews.api';
import { errorDetail } from '../../lib/error-detail';
import { reviewCount, reviewThanks, validateReview, type ReviewDraft, type ReviewErrors } from './review-form';

interface ReviewDialogProps {
  sale: SaleReviewStateDto;
  onClose: () => void;
  /** The first draft (a spec shows the dialog's checks with it); empty by default. */
  initialDraft?: ReviewDraft;
  initialErrors?: ReviewErrors;
}

/**
 * "Leave a review" (D23, ADR 0083): stars and text about the other party of a sale paid out, checked by the contracts'
 * schema before it is sent. Once sent it says when the review will show; opened for a sale that can no longer be
 * reviewed (a reloaded link), it says why.
 */
export function ReviewDialog({ sale, onClose, initialDraft = { stars: 0, text: '' }, initialErrors = {} }: ReviewDialogProps) {
  const [draft, setDraft] = useState<ReviewDraft>(initialDraft);
  const [errors, setErrors] = useState<ReviewErrors>(initialErrors);
  const [failure, setFailure] = useState<string | null>(null);
  // Kept here, not read from the sale: the list reloads after the write and the sale then says it cannot be reviewed.
  const [sent, setSent] = useState(false);
  const [create, { isLoading }] = useCreateReviewMutation();
  const other = displayName(sale.other_party);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = validateReview(sale.invoice_id, draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      await create(checked.request).unwrap();
      setSent(true);
    } catch (error) {
      setFailure(errorDetail(error, 'Could not send your review. Please try again.'));
    }
  };

  const title = `Review ${other}`;
  const intro = (
    <p className="muted review-dialog-intro">
      {sale.role === 'buyer' ? 'You bought' : 'You sold'} <strong>{sale.website_title}</strong> ({sale.invoice_number}). Your review stays private until {other}{' '}
      has reviewed you too, or until {reviewDay(sale.closes_at)}.
    </p>
  );

  if (sent || !sale.can_review) {
    return (
      <ModalDialog titleId="review-title" title={title} onClose={onClose} className="review-dialog">
        <p className={`alert ${sent ? 'alert-success' : 'alert-info'}`} role="status" data-testid="review-outcome">
          {sent ? reviewThanks(sale) : sale.mine ? `You have already reviewed this sale.` : `The 60 days to review this sale ended on ${reviewDay(sale.closes_at)}.`}
        </p>
        <div className="dialog-buttons">
          <button type="button" className="btn btn-primary" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
      </ModalDialog>
    );
  }

  return (
    <ModalDialog titleId="review-title" title={title} onClose={onClose} className="review-dialog">
      {intro}
      <form onSubmit={submit} noValidate>
        <StarInput
          legend={`How was ${sale.role === 'buyer' ? 'buying from' : 'selling to'} ${other}?`}
          value={draft.stars}
          error={errors.stars}
          onChange={(stars) => {
            setDraft((d) => ({ ...d, stars }));
            setErrors((e) => ({ ...e, stars: undefined }));
          }}
        />
        <TextAreaField
          label="Your review"
          name="text"
          rows={5}
          maxLength={REVIEW_TEXT_MAX * 2}
          value={draft.text}
          error={errors.text}
          placeholder="What went well, what could have gone better (at least 10 characters)"
          onChange={(text) => {
            setDraft((d) => ({ ...d, text }));
            setErrors((e) => ({ ...e, text: undefined }));
          }}
          required
        />
        <p className="muted small review-count">
          {reviewCount(draft.text)}
        </p>
        {(failure ?? errors.form) && (
          <p className="alert alert-error" role="alert">
            {failure ?? errors.form}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="submit" className="btn btn-primary" disabled={isLoading}>
            {isLoading ? 'Sending...' : 'Send review'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
