import { useState, type FormEvent } from 'react';
import { HideReviewSchema, type ReviewDto } from '@market/contracts';
import { REVIEW_HIDE_REASON_MAX } from '@market/domain';
import { ReasonDialog } from '../../components/dialog/ReasonDialog';
import { useReasonField } from '../../components/dialog/use-reason-field';
import { displayName } from '../../components/reviews/review-format';
import { useHideReviewMutation } from '../../api/reviews.api';
import { errorDetail } from '../../lib/error-detail';

/**
 * An admin hides a review that breaks the rules (ADR 0083): the reason is required and kept in the audit log; the
 * review leaves the page and the seller's rating at once.
 */
export function HideReviewDialog({ review, onClose, onHidden }: { review: ReviewDto; onClose: () => void; onHidden: () => void }) {
  const { value, setProblem, field } = useReasonField('Why does this review break the rules?', REVIEW_HIDE_REASON_MAX);
  const [failure, setFailure] = useState<string | null>(null);
  const [hide, { isLoading }] = useHideReviewMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = HideReviewSchema.safeParse({ reason: value });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Say why');
      return;
    }
    try {
      await hide({ id: review.id, reason: parsed.data.reason }).unwrap();
      onHidden();
    } catch (error) {
      setFailure(errorDetail(error, 'Could not hide the review. Please try again.'));
    }
  };

  return (
    <ReasonDialog
      titleId="hide-review-title"
      title="Hide this review"
      className="hide-review-dialog"
      onClose={onClose}
      intro={
        <p className="muted">
          {displayName(review.author)}&apos;s review of {review.website_title}. It will no longer show or count in the seller&apos;s rating; the reason goes to the
          audit log.
        </p>
      }
      reason={field}
      failure={failure}
      submit={{ label: 'Hide review', busyLabel: 'Hiding...', busy: isLoading, tone: 'danger' }}
      keepLabel="Cancel"
      onSubmit={submit}
    />
  );
}
