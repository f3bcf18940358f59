import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { BidAction, UserBidRow } from '@market/contracts';
import { useBidActionMutation, useUserBidsQuery } from '../../api/bids.api';
import { EmptyState, LoadError, LoadingState } from '../../components/feedback/QueryState';
import { dashboardRows, listLoadFailed } from '../../lib/dashboard-lists';
import { errorDetail } from '../../lib/error-detail';
import { BidderMessageDialog } from './BidderMessageDialog';
import { BidRow, type RowNotice } from './BidRow';
import { bidCounts, NO_BIDS_TEXT, performBidAction, PROFILE_NOTICE_MS, PROFILE_SOON } from './my-bids';
import './my-bids.css';

const SUCCESS_MS = 4000;

/** Dashboard My Bids (SPEC §2): the user's own bids and offers, and those on their listings with accept/reject. */
export function MyBidsTab() {
  const { data, error, isLoading, refetch } = useUserBidsQuery(undefined, { refetchOnMountOrArgChange: true });
  const rows = dashboardRows(data?.bids, error);
  const failed = listLoadFailed(error);

  return (
    <section aria-labelledby="my-bids-heading">
      <div className="my-bids-head">
        <h2 id="my-bids-heading">
          My Bids{!isLoading && !failed && <span className="muted"> ({rows.length})</span>}
        </h2>
        {rows.length > 0 && <Link to="/browse">Browse Websites</Link>}
      </div>
      {failed && <LoadError onRetry={() => refetch()}>Could not load your bids: {errorDetail(error, 'please try again.')}</LoadError>}
      {isLoading && <LoadingState text="Loading your bids..." />}
      {!isLoading && !error && rows.length === 0 && <NoBidsYet />}
      {rows.length > 0 && <BidList rows={rows} />}
    </section>
  );
}

/** The empty state of SPEC §2. */
export function NoBidsYet() {
  return (
    <EmptyState>
      <p>{NO_BIDS_TEXT}</p>
      <Link className="btn btn-primary" to="/browse">
        Browse Websites
      </Link>
    </EmptyState>
  );
}

/** The rows with their seller actions, and the footer counts. */
export function BidList({ rows }: { rows: UserBidRow[] }) {
  const [bidAction] = useBidActionMutation();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState<(RowNotice & { rowId: string }) | null>(null);
  const [composing, setComposing] = useState<UserBidRow | null>(null);
  const closeDialog = useCallback(() => setComposing(null), []);
  const counts = bidCounts(rows);

  // Success fades (SPEC §9: 3 to 5 s), the profile notice after 3 s; errors stay until the next action.
  useEffect(() => {
    if (!notice || notice.kind === 'error') return;
    const timer = setTimeout(() => setNotice(null), notice.kind === 'info' ? PROFILE_NOTICE_MS : SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const act = async (row: UserBidRow, action: BidAction['action']) => {
    setNotice(null);
    setBusyId(row.id);
    try {
      const outcome = await performBidAction(row, action, {
        confirm: (text) => window.confirm(text),
        send: () => bidAction({ id: row.id, listing_id: row.listing_id, action }).unwrap(),
      });
      if (outcome) setNotice({ ...outcome, rowId: row.id });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <>
      <ul className="my-bids-list">
        {rows.map((row) => (
          <BidRow
            key={row.id}
            row={row}
            busy={busyId === row.id}
            notice={notice?.rowId === row.id ? notice : null}
            onAction={(action) => void act(row, action)}
            onMessage={() => setComposing(row)}
            onViewBidder={() => setNotice({ kind: 'info', text: PROFILE_SOON, rowId: row.id })}
          />
        ))}
      </ul>
      <BidCountsFooter total={counts.total} buyer={counts.buyer} seller={counts.seller} />
      {composing && <BidderMessageDialog row={composing} onClose={closeDialog} />}
    </>
  );
}

/** "Total: 5 · Buyer: 3 · Seller: 2". */
export function BidCountsFooter({ total, buyer, seller }: { total: number; buyer: number; seller: number }) {
  return (
    <footer className="my-bids-footer muted" aria-label="Bid counts">
      <span>
        Total: <strong>{total}</strong>
      </span>
      <span>
        Buyer: <strong>{buyer}</strong>
      </span>
      <span>
        Seller: <strong>{seller}</strong>
      </span>
    </footer>
  );
}
