import { Link } from 'react-router-dom';
import type { SellerDto } from '@market/contracts';
import { Stars } from '../../components/reviews/Stars';
import { reviewCountText, sellerPagePath } from '../../components/reviews/review-format';

/**
 * Who sells the listing (SPEC §3 Seller): name, @username, verified check mark, the rating of their visible reviews
 * with how many there are, and the sales they completed (D23), with a link to their public page.
 */
export function SellerCard({ seller }: { seller: SellerDto }) {
  const sales = seller.total_transactions;
  return (
    <section className="card seller-card" aria-labelledby="seller-heading">
      <h2 id="seller-heading">Seller</h2>
      <div className="seller-row">
        <span className="seller-avatar" aria-hidden="true">
          {(seller.name || seller.username).charAt(0).toUpperCase()}
        </span>
        <div className="seller-names">
          <strong data-testid="seller-name">
            {seller.name || seller.username}
            {seller.verified && (
              <span className="seller-verified" role="img" aria-label="Verified seller" title="Verified seller">
                ✓
              </span>
            )}
          </strong>
          <span className="muted">@{seller.username}</span>
        </div>
      </div>
      <dl className="seller-facts">
        <div>
          <dt>Rating</dt>
          <dd data-testid="seller-rating">
            {seller.rating === null ? (
              'No ratings yet'
            ) : (
              <span className="seller-rating">
                <Stars rating={seller.rating} /> <span>{seller.rating.toFixed(1)}</span>{' '}
                <span className="muted seller-review-count">({reviewCountText(seller.review_count)})</span>
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Sales completed</dt>
          <dd data-testid="seller-sales">{sales}</dd>
        </div>
      </dl>
      <Link className="seller-page-link" to={sellerPagePath(seller.username)}>
        View {seller.name || seller.username}&apos;s profile and reviews
      </Link>
    </section>
  );
}
