import { useState, type FormEvent } from 'react';
import { ReviewReplySchema } from '@market/contracts';
import { REVIEW_TEXT_MAX } from '@market/domain';
import { TextAreaField } from '../../components/form/TextAreaField';
import { useReplyToReviewMutation } from '../../api/reviews.api';
import { errorDetail } from '../../lib/error-detail';

/**
 * The reviewed seller's one public reply to a review (D23): a button that opens a small form, checked by the
 * contracts' schema (10 to 1000 characters) before it is sent. The page reloads the review with its reply.
 */
export function ReplyForm({ reviewId }: { reviewId: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reply, { isLoading }] = useReplyToReviewMutation();

  if (!open) {
    return (
      <button type="button" className="btn btn-ghost btn-tiny review-reply-open" onClick={() => setOpen(true)}>
        Reply
      </button>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = ReviewReplySchema.safeParse({ text });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Write 10 to 1000 characters');
      return;
    }
    try {
      await reply({ id: reviewId, text: parsed.data.text }).unwrap();
      setOpen(false);
    } catch (error) {
      setFailure(errorDetail(error, 'Could not post your reply. Please try again.'));
    }
  };

  return (
    <form className="review-reply-form" onSubmit={submit} noValidate>
      <TextAreaField
        label="Your public reply (one per review)"
        name="reply"
        rows={3}
        maxLength={REVIEW_TEXT_MAX * 2}
        value={text}
        error={problem ?? undefined}
        onChange={(value) => {
          setText(value);
          setProblem(null);
        }}
        autoFocus
        required
      />
      {failure && (
        <p className="alert alert-error" role="alert">
          {failure}
        </p>
      )}
      <div className="review-reply-buttons">
        <button type="submit" className="btn btn-primary btn-small" disabled={isLoading}>
          {isLoading ? 'Posting...' : 'Post reply'}
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
