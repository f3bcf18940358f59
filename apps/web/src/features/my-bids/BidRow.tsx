import { Link } from 'react-router-dom';
import type { BidAction, UserBidRow } from '@market/contracts';
import { formatDollars } from '@market/domain';
import { AutoBidBadge } from '../../components/listing/AutoBidBadge';
import { buyerBadges, formatBidDate, isSuperseded, kindLabel, sellerActions } from './my-bids';

/** A short note shown inside one row: an action's outcome or the profile notice. */
export interface RowNotice {
  kind: 'success' | 'error' | 'info';
  text: string;
}

export interface BidRowProps {
  row: UserBidRow;
  busy?: boolean;
  notice?: RowNotice | null;
  onAction?: (action: BidAction['action']) => void;
  onMessage?: () => void;
  onViewBidder?: () => void;
}

const noop = () => undefined;

/** One row of My Bids (SPEC §3 Bid row): what, how much, when, whose; buyer badges or the seller's actions. */
export function BidRow({ row, busy = false, notice = null, onAction = noop, onMessage = noop, onViewBidder = noop }: BidRowProps) {
  const kind = kindLabel(row.kind);
  // An own bid a later one replaced is quieter (ADR 0060): the bidder's current row tells where they stand.
  const superseded = row.role === 'buyer' && isSuperseded(row);
  return (
    <li className={`card my-bid-row${superseded ? ' my-bid-superseded' : ''}`} data-testid="my-bid-row">
      <div className="my-bid-main">
        <h3 className="my-bid-title">
          <Link to={`/listing/${row.listing_id}`}>{row.listing_title}</Link>
        </h3>
        <div className="my-bid-tags">
          <span className={`my-bid-tag my-bid-kind-${row.kind}`}>{kind}</span>
          <span className="my-bid-tag">{row.role === 'buyer' ? 'Buyer' : 'Seller'}</span>
          {row.automatic && <AutoBidBadge label={row.role === 'buyer' ? 'placed automatically for your maximum' : 'placed automatically for a maximum'} />}
          <time className="muted my-bid-date" dateTime={row.created_at}>
            {formatBidDate(row.created_at)}
          </time>
        </div>
        {row.role === 'seller' && (
          <p className="my-bid-bidder">
            From <strong>{row.bidder_username}</strong>
            {row.bidder_verified && (
              <span className="my-bid-verified" title="Verified" aria-label="Verified">
                ✓
              </span>
            )}
          </p>
        )}
      </div>
      <div className="my-bid-amounts">
        <strong className="my-bid-amount" aria-label={`${kind} amount`}>
          {formatDollars(row.amount)}
        </strong>
        {row.kind === 'bid' && row.current_bid !== null && <span className="muted my-bid-current">Current bid {formatDollars(row.current_bid)}</span>}
        {/* Only the bidder's own rows carry their maximum (ADR 0055); a seller's row never names one. It is the
            listing's current maximum, so it shows once, on the bidder's newest row (ADR 0060). */}
        {row.role === 'buyer' && row.latest && row.max_amount !== null && (
          <span className="my-bid-max" data-testid="my-bid-max">
            Your maximum: {formatDollars(row.max_amount)}
          </span>
        )}
      </div>
      <div className="my-bid-side">
        {row.role === 'buyer' ? <BuyerSide row={row} /> : <SellerSide row={row} busy={busy} onAction={onAction} onMessage={onMessage} onViewBidder={onViewBidder} />}
      </div>
      {notice && (
        <div
          className={`alert my-bid-notice ${notice.kind === 'error' ? 'alert-error' : notice.kind === 'success' ? 'alert-success' : 'alert-info'}`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </div>
      )}
    </li>
  );
}

function BuyerSide({ row }: { row: UserBidRow }) {
  return (
    <>
      <span className="my-bid-badges">
        {buyerBadges(row).map((badge) => (
          <span key={badge.label} className={`badge badge-${badge.tone}`} title={badge.hint} data-testid="my-bid-badge">
            {badge.label}
            {badge.hint && <span className="visually-hidden"> ({badge.hint})</span>}
          </span>
        ))}
      </span>
      <Link className="btn btn-secondary btn-tiny" to={`/listing/${row.listing_id}`}>
        View Listing
      </Link>
    </>
  );
}

function SellerSide({ row, busy, onAction, onMessage, onViewBidder }: Required<Omit<BidRowProps, 'notice'>>) {
  const state = sellerActions(row.status);
  if (state === 'Accepted') return <span className="badge badge-green">Accepted</span>;
  if (state === 'Rejected') return <span className="badge badge-gray">Rejected</span>;
  if (state === 'No actions') return <span className="muted">No actions</span>;
  const who = `${kind(row)} of ${formatDollars(row.amount)} from ${row.bidder_username}`;
  return (
    <span className="my-bid-actions">
      <button type="button" className="btn btn-primary btn-tiny" disabled={busy} aria-label={`Accept ${who}`} onClick={() => onAction('accept')}>
        Accept
      </button>
      <button type="button" className="btn btn-danger btn-tiny" disabled={busy} aria-label={`Reject ${who}`} onClick={() => onAction('reject')}>
        Reject
      </button>
      <button type="button" className="btn btn-secondary btn-tiny" onClick={onMessage}>
        Message bidder
      </button>
      <button type="button" className="btn btn-ghost btn-tiny" onClick={onViewBidder}>
        View bidder
      </button>
    </span>
  );
}

const kind = (row: Pick<UserBidRow, 'kind'>) => kindLabel(row.kind).toLowerCase();
