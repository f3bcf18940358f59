import type { SellerDto } from '@market/contracts';

/** Who sells the listing (SPEC §3 Seller): name, @username, rating, verified check mark, transactions. */
export function SellerCard({ seller }: { seller: SellerDto }) {
  const transactions = seller.total_transactions;
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
          <dd>{seller.rating === null ? 'No ratings yet' : `${seller.rating.toFixed(1)} / 5`}</dd>
        </div>
        <div>
          <dt>Transactions</dt>
          <dd>
            {transactions} {transactions === 1 ? 'transaction' : 'transactions'}
          </dd>
        </div>
      </dl>
    </section>
  );
}
