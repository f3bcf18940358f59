import { formatDollars } from '@market/domain';
import { useBidHistoryQuery } from '../../api/bids.api';
import { AutoBidBadge } from '../../components/listing/AutoBidBadge';
import { useBidTime } from './bid-form';

/** The latest 10 bids of an auction, newest first (SPEC §2, §9); bids placed for a maximum are marked auto. */
export function BidHistory({ listingId }: { listingId: string }) {
  const formatBidTime = useBidTime();
  const { data, isLoading, error, refetch } = useBidHistoryQuery(listingId);
  const bids = data?.bids ?? [];

  return (
    <section className="card bid-history" aria-labelledby="bid-history-title">
      <h2 id="bid-history-title">Bid history</h2>
      {isLoading ? (
        <p className="muted" role="status">
          Loading bids...
        </p>
      ) : error && !data ? (
        <p className="muted">
          The bid history could not be loaded.{' '}
          <button type="button" className="link-button" onClick={() => refetch()}>
            Try again
          </button>
        </p>
      ) : bids.length === 0 ? (
        <p className="muted">No bids yet. Be the first to bid!</p>
      ) : (
        <ol className="bid-history-list">
          {bids.map((bid) => (
            <li key={bid.id}>
              <span className="bid-history-name">
                {bid.bidder_name}
                {bid.automatic && (
                  <>
                    {' '}
                    <AutoBidBadge />
                  </>
                )}
              </span>
              <strong className="bid-history-amount">{formatDollars(bid.amount)}</strong>
              <time className="bid-history-time muted" dateTime={bid.created_at}>
                {formatBidTime(bid.created_at)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
