import type { ReviewDto } from '@market/contracts';
import { reviewDay } from './review-format';
import './reviews.css';

/** The reviewed seller's one public reply under a review (D23), as plain text. */
export function ReviewReply({ reply, seller }: { reply: NonNullable<ReviewDto['reply']>; seller: string }) {
  return (
    <div className="review-reply" data-testid="review-reply">
      <p className="review-reply-head">
        <strong>Reply from {seller}</strong> <time className="muted" dateTime={reply.created_at}>{reviewDay(reply.created_at)}</time>
      </p>
      <p className="review-text">{reply.text}</p>
    </div>
  );
}
