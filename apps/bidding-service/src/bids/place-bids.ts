import { Injectable } from '@nestjs/common';
import { AuctionsRepository } from '../auctions/auctions.repository';
import type { EntityManager } from 'typeorm';
import type { AuctionRecord, PlacedBid } from '../auctions/auction.records';
import { repairMaximums } from '../auctions/auction-maximums.repository';
import { buyerRefusal } from '../auctions/bidding.policy';
import { batchRows } from './bid-batch.repository';
import { answersOf, decideBatch, type BatchStart } from './decide-batch';
import type { BatchOutcome, SequencedBatch } from './keyed-sequencer';
import type { QueuedBid } from './queued-bid';

/**
 * Placing bids (ADR 0058, 0070): the one way a bid is decided, a batch per listing under the auction's row lock: lock
 * (AuctionsRepository) → read (bid-batch.repository) → decide in memory by libs/domain (decide-batch) → one write.
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
      const placed = await this.decideAndRecord(auction, live, (index) => index > 0 && batch.overLockTime(), manager);
      const undecided = live.slice(placed.length);
      batch.giveBack(undecided);
      const answers = new Map(placed.map((ok, index) => [live[index], ok] as const));
      return queued
        .filter((q) => !undecided.includes(q))
        .map((q): BatchOutcome<PlacedBid | null> => (answers.has(q) ? { ok: answers.get(q) ?? null } : { error: refused.get(q) }));
    });
  }

  /**
   * Decides the bids on a locked auction in arrival order and records them in one write (ADR 0062); a member removed by
   * moderation or on a buying hold is refused. The answers cover the bids decided before `stop`, in order.
   */
  private async decideAndRecord(locked: AuctionRecord, queued: QueuedBid[], stop: (index: number) => boolean, manager: EntityManager): Promise<PlacedBid[]> {
    const callerIds = [...new Set(queued.map((q) => q.bidder.id))];
    // Read after the lock, as for a bid alone: a suspension's sweep (ADR 0038) either sees these bids or they see it.
    const read = await batchRows.readStart(manager, locked.listing_id, callerIds, new Date());
    const refused = new Map([...read.stopped].map(([bidderId, standing]) => [bidderId, buyerRefusal(standing) as string]));
    const start: BatchStart = { locked, standing: read.standing, refused, clock: read.clock };
    const top = start.standing.reduce((best, row) => Math.max(best, row.max_amount), 0);
    // The leading maximum is never below the price; when it is, bids came without maximums (a previous release).
    if (locked.current_bid !== null && top < locked.current_bid) {
      await repairMaximums(manager, locked.listing_id);
      start.standing = await batchRows.readStanding(manager, locked.listing_id, callerIds);
    }
    const decided = decideBatch(start, queued, stop);
    // A leader who only raised their maximum answers with their leading bid as it stood: read before the write, so a
    // later bid of this batch is not taken for it.
    const leadingBefore = await batchRows.leadingBidsOf(locked.listing_id, decided.raisedOnly, manager);
    const recorded = await batchRows.record(manager, {
      auction: decided.auction,
      bids: decided.pending.map((p) => ({ payload: p.payload, automatic: p.automatic, request_id: queued[p.entry].request_id, traceparent: queued[p.entry].traceparent })),
      maximums: [...decided.saved.entries()],
      clock: start.clock,
    });
    return answersOf(decided, queued, recorded, leadingBefore);
  }
}

/** Every item a batch may take now, in order. */
function takeAll<T>(batch: SequencedBatch<T>): T[] {
  const items: T[] = [];
  for (let item = batch.take(); item !== undefined; item = batch.take()) items.push(item);
  return items;
}
