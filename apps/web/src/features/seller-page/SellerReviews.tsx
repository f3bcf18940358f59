import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ReviewDto, SellerPageDto } from '@market/contracts';
import { ReviewItem } from '../../components/reviews/ReviewItem';
import { displayName, reviewCountText, sellerPagePath } from '../../components/reviews/review-format';
import { HideReviewDialog } from './HideReviewDialog';
import { ReplyForm } from './ReplyForm';
import { NO_REVIEWS_TEXT } from './seller-page';

interface SellerReviewsProps {
  data: SellerPageDto;
  /** The viewer is this seller: they may reply once to each review. */
  isSeller: boolean;
  /** The viewer is an admin signed in as themselves (not impersonating): they may hide a review. */
  isAdmin: boolean;
}

/** Previous and Next as links (a crawler follows them), with where the reader is. */
function ReviewsPager({ username, page, pages }: { username: string; page: number; pages: number }) {
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav className="reviews-pager" aria-label="Review pages">
      {page > 1 ? (
        <Link className="btn btn-ghost btn-small" to={sellerPagePath(username, Math.min(page - 1, Math.max(1, pages)))} rel="prev">
          Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="muted">
        Page {page} of {Math.max(1, pages)}
      </span>
      {page < pages ? (
        <Link className="btn btn-ghost btn-small" to={sellerPagePath(username, page + 1)} rel="next">
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/**
 * The reviews buyers wrote about the seller (D23): newest first, ten a page, each with the seller's reply; the seller's
 * reply form and an admin's Hide where the viewer may use them.
 */
export function SellerReviews({ data, isSeller, isAdmin }: SellerReviewsProps) {
  const { seller, reviews, page, pages } = data;
  const [hiding, setHiding] = useState<ReviewDto | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shownPage = useRef(page);
  // Another page of reviews: the reader is taken to its top (a path change alone resets the scroll, SPEC §2).
  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView?.({ block: 'start' });
  }, [page]);

  return (
    <section className="card seller-reviews" aria-labelledby="seller-reviews-heading">
      <h2 id="seller-reviews-heading" ref={heading} tabIndex={-1}>
        Reviews <span className="muted">({reviewCountText(seller.review_count)})</span>
      </h2>
      {notice && (
        <p className="alert alert-success" role="status">
          {notice}
        </p>
      )}
      {reviews.length === 0 ? (
        <div className="seller-empty" data-testid="seller-no-reviews">
          {seller.review_count === 0 ? (
            <p>{NO_REVIEWS_TEXT}</p>
          ) : (
            <p>
              There are no reviews on this page. <Link to={sellerPagePath(seller.username)}>See the newest reviews</Link>
            </p>
          )}
        </div>
      ) : (
        <ul className="review-list">
          {reviews.map((review) => (
            <ReviewItem key={review.id} review={review} replier={displayName(seller)}>
              {(isSeller && !review.reply) || isAdmin ? (
                <div className="review-actions">
                  {isSeller && !review.reply && <ReplyForm reviewId={review.id} />}
                  {isAdmin && (
                    <button type="button" className="btn btn-ghost btn-tiny review-hide" onClick={() => setHiding(review)}>
                      Hide
                    </button>
                  )}
                </div>
              ) : null}
            </ReviewItem>
          ))}
        </ul>
      )}
      <ReviewsPager username={seller.username} page={page} pages={pages} />
      {hiding && (
        <HideReviewDialog
          review={hiding}
          onClose={() => setHiding(null)}
          onHidden={() => {
            setHiding(null);
            setNotice('The review is hidden.');
          }}
        />
      )}
    </section>
  );
}
