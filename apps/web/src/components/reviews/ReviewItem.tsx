import type { ReactNode } from 'react';
import type { ReviewDto } from '@market/contracts';
import { Stars } from './Stars';
import { ReviewReply } from './ReviewReply';
import { displayName, reviewDay } from './review-format';
import './reviews.css';

interface ReviewItemProps {
  review: ReviewDto;
  /** Who the reply is from (the reviewed seller's name), when the review has one. */
  replier?: string;
  /** What the viewer may do with it (the seller's reply form, an admin's Hide). */
  children?: ReactNode;
  /** The element it renders as: an item of a list of reviews, or a block of its own. */
  as?: 'li' | 'div';
}

/**
 * One review (D23): its stars, who wrote it about which sale and when, its text and the seller's reply. Review text is
 * written by users: it is rendered as text (React escapes it), never as HTML, and keeps its line breaks.
 */
export function ReviewItem({ review, replier, children, as: Element = 'li' }: ReviewItemProps) {
  return (
    <Element className="review-item" data-testid="review-item">
      <div className="review-head">
        <Stars rating={review.stars} />
        <strong className="review-author">{displayName(review.author)}</strong>
        <span className="muted review-role">{review.author_role === 'buyer' ? 'Buyer' : 'Seller'}</span>
        <time className="muted review-date" dateTime={review.created_at}>
          {reviewDay(review.created_at)}
        </time>
      </div>
      <p className="muted review-sale">
        {review.author_role === 'buyer' ? 'Bought' : 'Sold'} {review.website_title}
      </p>
      <p className="review-text">{review.text}</p>
      {review.reply && <ReviewReply reply={review.reply} seller={replier ?? 'the seller'} />}
      {children}
    </Element>
  );
}
