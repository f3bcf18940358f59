import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { appendEvent } from '@market/server-kit';
import { ListingCancellationsRepository } from './listing-cancellations.repository';

const BIDDERS_PER_EVENT = 500;

/**
 * An admin's cancellation of a listing, as the sale sees it (ADR 0042, 0070): the only place that ends a sale for that
 * reason. It runs in the listing.cancelled consumer's transaction, so the ended sale, the rejected bids and the
 * auction.cancelled event that tells the bidders commit together, once.
 */
@Injectable()
export class CancelSale {
  constructor(private readonly rows: ListingCancellationsRepository) {}

  /**
   * Ends the sale for good, rejects its open bids and writes auction.cancelled naming everyone who bid. A sale that
   * completed before the cancellation arrived stands.
   */
  async cancel(event: EventPayloads['listing.cancelled'], manager: EntityManager): Promise<'cancelled' | 'already_sold'> {
    if (await this.rows.lockWinner(event.listing_id, manager)) return 'already_sold';
    await this.rows.endCancelled(event, manager);
    const ids = await this.rows.biddersOf(event.listing_id, event.seller_id, manager);
    // One event per 500 bidders (a message stays far below NATS's payload limit); the first also tells the seller.
    for (let start = 0; start === 0 || start < ids.length; start += BIDDERS_PER_EVENT) {
      await appendEvent(manager, 'auction.cancelled', {
        listing_id: event.listing_id,
        listing_title: event.listing_title,
        seller_id: event.seller_id,
        reason: event.reason,
        bidder_ids: ids.slice(start, start + BIDDERS_PER_EVENT),
        notify_seller: start === 0,
        cancelled_at: event.cancelled_at,
      });
    }
    return 'cancelled';
  }
}
