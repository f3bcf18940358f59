import { Injectable } from '@nestjs/common';
import { AuctionsRepository } from '../auctions/auctions.repository';
import type { PlacedBid } from '../auctions/auction.records';
import { placeBatchLocked, type QueuedBid } from './bid-batch.repository';
import type { BatchOutcome, SequencedBatch } from './keyed-sequencer';

/**
 * Placing bids (ADR 0058, 0070): the one way a bid is decided, a batch per listing under the auction's row lock. The
 * lock and the transaction are the auctions' (AuctionsRepository); the decision and its one write, bid-batch.repository.
 */
@Injectable()
export class PlaceBids {
  constructor(private readonly auctions: AuctionsRepository) {}

  /**
   * Places a batch of bids on one listing in one transaction (ADR 0058): the bids waiting when it starts are taken before
   * the lock (so a lock timeout answers them), those that came while it waited after; then one read of the standing
   * maximums and of the callers who may not bid (removed, or on a buying hold), the decisions in arrival order, and one
   * write of all bids, events, the auction and the maximums (ADR 0062). Deciding stops once the batch has
   * held the lock its allowed time; the undecided go back to the queue. An answer is null when the listing has no auction.
   */
  async placeBatch(
    listingId: string,
    batch: SequencedBatch<QueuedBid>,
    late: (bid: QueuedBid) => Error | null = () => null,
  ): Promise<BatchOutcome<PlacedBid | null>[]> {
    const early = takeAll(batch);
    return this.auctions.transaction(async (manager) => {
      const auction = await this.auctions.lock(listingId, manager);
      batch.locked();
      const queued = [...early, ...takeAll(batch)];
      if (!auction) return queued.map(() => ({ ok: null }));
      // A bid whose caller stops waiting before the batch can commit is refused, never decided: a stored bid always had
      // its 2xx (ADR 0058). Checked once the lock is held, when the wait for it is over.
      const refused = new Map(queued.map((q) => [q, late(q)] as const).filter(([, error]) => error !== null));
      const live = queued.filter((q) => !refused.has(q));
      const placed = await placeBatchLocked(auction, live, (index) => index > 0 && batch.overLockTime(), manager);
      const undecided = live.slice(placed.length);
      batch.giveBack(undecided);
      const answers = new Map(placed.map((ok, index) => [live[index], ok] as const));
      return queued
        .filter((q) => !undecided.includes(q))
        .map((q): BatchOutcome<PlacedBid | null> => (answers.has(q) ? { ok: answers.get(q) ?? null } : { error: refused.get(q) }));
    });
  }
}

/** Every item a batch may take now, in order. */
function takeAll<T>(batch: SequencedBatch<T>): T[] {
  const items: T[] = [];
  for (let item = batch.take(); item !== undefined; item = batch.take()) items.push(item);
  return items;
}
