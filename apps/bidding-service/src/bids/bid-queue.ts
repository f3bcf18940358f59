import { Inject, Injectable } from '@nestjs/common';
import { currentDeadline, currentRequestId, currentTraceparent, overloaded } from '@market/server-kit';
import { BIDDING_CONFIG, type BiddingConfig } from '../bidding.config';
import { PlaceBids } from './place-bids';
import type { QueuedBid } from './queued-bid';
import type { PlacedBid } from '../auctions/auction.records';
import { KeyedSequencer, QueueFullError } from './keyed-sequencer';

/** The answer when a listing's queue in this replica is full (ADR 0058): nothing was changed; try again shortly. */
export const BIDS_QUEUE_FULL = 'Too many bids on this listing right now; nothing was changed. Please try again in a moment.';
/** Seconds a bidder refused for a full queue is told to wait (Retry-After): a full queue drains within about one. */
export const BIDS_RETRY_AFTER_SECONDS = 1;

/** What a bidder is told when their bid waited too long to be decided in time (ADR 0058): nothing was stored. */
export const BID_TOO_LATE = 'Bids on this listing are taking too long right now; yours was not placed. Please try again in a moment.';

/**
 * The refusal of a bid whose caller would have stopped waiting before its batch commits (ADR 0058): a batch may hold the
 * lock `lockMs` more, and a bid answered 503 by the gateway must not be stored. Null while there is time.
 */
export function lateBid(bid: QueuedBid, lockMs: number, now = Date.now()): Error | null {
  if (bid.deadline === null || bid.deadline === undefined || bid.deadline - now > lockMs + LATE_MARGIN_MS) return null;
  return overloaded(BID_TOO_LATE, BIDS_RETRY_AFTER_SECONDS);
}
// Time for the writes and the commit after the deciding stops, and for the answer's trip back.
const LATE_MARGIN_MS = 100;

/**
 * Bids wait here per listing and are decided in batches, one batch per listing at a time in this replica, each in one
 * transaction under the auction's row lock (ADR 0058); across replicas the row lock orders the batches (ADR 0017).
 */
@Injectable()
export class BidQueue {
  private readonly sequencer: KeyedSequencer<QueuedBid, PlacedBid | null>;

  constructor(bids: PlaceBids, @Inject(BIDDING_CONFIG) config: BiddingConfig) {
    this.sequencer = new KeyedSequencer(
      { batchMax: config.BID_BATCH_MAX, queueMax: config.BID_QUEUE_MAX, maxLockMs: config.BID_BATCH_MAX_LOCK_MS },
      (listingId, batch) => bids.placeBatch(listingId, batch, (bid) => lateBid(bid, config.BID_BATCH_MAX_LOCK_MS)),
    );
  }

  /**
   * Queues one bid behind those that came before it on its listing (the stored listing id) and answers with its own
   * outcome once its batch committed; null when the listing has no auction. A full queue is a 503 with Retry-After.
   */
  async place(listingId: string, bid: Omit<QueuedBid, 'request_id' | 'traceparent'>): Promise<PlacedBid | null> {
    try {
      return await this.sequencer.submit(listingId, { ...bid, request_id: currentRequestId(), traceparent: currentTraceparent(), deadline: currentDeadline() });
    } catch (error) {
      if (error instanceof QueueFullError) throw overloaded(BIDS_QUEUE_FULL, BIDS_RETRY_AFTER_SECONDS);
      throw error;
    }
  }
}
