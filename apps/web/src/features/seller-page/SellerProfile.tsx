import type { SellerPageDto } from '@market/contracts';
import { Stars } from '../../components/reviews/Stars';
import { displayName, memberSince, reviewCountText } from '../../components/reviews/review-format';
import { salesText } from './seller-page';

/** Who the seller is (ADR 0083): name, @username, verified mark, member since, rating with its reviews, sales completed. */
export function SellerProfile({ seller }: { seller: SellerPageDto['seller'] }) {
  const name = displayName(seller);
  return (
    <header className="card seller-profile">
      <span className="seller-profile-avatar" aria-hidden="true">
        {name.charAt(0).toUpperCase()}
      </span>
      <div className="seller-profile-names">
        <h1>
          {name}
          {seller.verified && (
            <span className="seller-profile-verified" role="img" aria-label="Verified seller" title="Verified seller">
              ✓
            </span>
          )}
        </h1>
        <p className="muted">
          @{seller.username} · Member since {memberSince(seller.member_since)}
        </p>
      </div>
      <dl className="seller-profile-facts">
        <div>
          <dt>Rating</dt>
          <dd data-testid="seller-page-rating">
            {seller.rating === null ? (
              'No ratings yet'
            ) : (
              <>
                <Stars rating={seller.rating} size="large" /> <strong>{seller.rating.toFixed(1)}</strong>{' '}
                <span className="muted">({reviewCountText(seller.review_count)})</span>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Sales</dt>
          <dd data-testid="seller-page-sales">{salesText(seller.total_transactions)}</dd>
        </div>
      </dl>
    </header>
  );
}
