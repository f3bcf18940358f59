import type { AuctionsRepository } from '../auctions/auctions.repository';
import type { QueuedBid } from '../bids/queued-bid';
import type { PlacedBid } from '../auctions/auction.records';
import type { SequencedBatch } from '../bids/keyed-sequencer';
import { PlaceBids } from '../bids/place-bids';

/**
 * One bid decided the way production decides every bid: as a batch (here of one) through PlaceBids.placeBatch
 * (ADR 0058), with no queue around it. What a test needs to place a bid at a given time without the RPC.
 */
export async function placeOne(
  auctions: AuctionsRepository,
  listingId: string,
  bidder: { id: string; name: string },
  amount: number,
  now: Date,
  antiSnipingMinutes: number,
  maxAmount: number | null = null,
): Promise<PlacedBid | null> {
  const waiting: QueuedBid[] = [{ bidder, amount, max_amount: maxAmount, now, anti_sniping_minutes: antiSnipingMinutes, request_id: null, traceparent: null }];
  const batch: SequencedBatch<QueuedBid> = {
    locked: () => undefined,
    take: () => waiting.shift(),
    overLockTime: () => false,
    giveBack: (items) => {
      if (items.length > 0) throw new Error('a batch of one gave its bid back undecided');
    },
  };
  const [outcome] = await new PlaceBids(auctions).placeBatch(listingId, batch);
  if (!outcome) throw new Error('the batch answered nothing');
  if ('error' in outcome) throw outcome.error;
  return outcome.ok;
}
