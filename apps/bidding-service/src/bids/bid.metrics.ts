import { AppError, counter } from '@market/server-kit';
import { LISTING_BUSY } from '../auctions/bounded-transaction';
import { BIDS_QUEUE_FULL } from './bid-queue';

const bids = () =>
  counter({
    name: 'market_bids_total',
    help: 'Bids and offers placed, by result: accepted, refused (outbid, a broken rule, not allowed), lock_timeout, queue_full, error',
    labelNames: ['result'],
  });

/** The result label of a bid that failed: a lock timeout, a full queue (ADR 0058), a refusal the member caused (4xx), or an error. */
export function bidResultOf(error: unknown): 'lock_timeout' | 'queue_full' | 'refused' | 'error' {
  if (error instanceof AppError && error.code === 'overloaded' && error.detail === LISTING_BUSY) return 'lock_timeout';
  if (error instanceof AppError && error.code === 'overloaded' && error.detail === BIDS_QUEUE_FULL) return 'queue_full';
  if (error instanceof AppError && error.status < 500) return 'refused';
  return 'error';
}

/** Counts one placed bid or offer by its result in market_bids_total (ADR 0048), passing its answer through. */
export async function countBid<T>(placing: Promise<T>): Promise<T> {
  try {
    const placed = await placing;
    bids().inc({ result: 'accepted' });
    return placed;
  } catch (error) {
    bids().inc({ result: bidResultOf(error) });
    throw error;
  }
}
