import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { appendEvent } from '@market/server-kit';
import type { ListingRecord } from './listings.repository';
import { listingUpdatedPayload } from './sale-terms.service';
import { SellerModerationRepository, type MemberStatus } from './seller-moderation.repository';

/**
 * Moderation reaches listings (ADR 0038): a suspended seller's live listings are paused (hidden from browse; bidding
 * refuses bids on them once listing.updated says paused), and a reactivation makes live again exactly those. Called by
 * the consumers, in each event's transaction; an older announcement than the member's state changes nothing.
 */
@Injectable()
export class SellerModerationService {
  constructor(private readonly moderation: SellerModerationRepository) {}

  /** Records a suspension and, while it stands, pauses the seller's live listings; returns how many. */
  async suspend(manager: EntityManager, sellerId: string, at: Date): Promise<number> {
    if ((await this.moderation.recordMember(sellerId, 'suspended', at, manager)) !== 'suspended') return 0;
    return this.announce(manager, await this.moderation.pauseSeller(sellerId, manager));
  }

  /** Records a reactivation and, while it stands, restores the listings moderation paused; returns how many. */
  async reactivate(manager: EntityManager, sellerId: string, at: Date): Promise<number> {
    if ((await this.moderation.recordMember(sellerId, 'active', at, manager)) !== 'active') return 0;
    return this.announce(manager, await this.moderation.restoreSeller(sellerId, manager));
  }

  /** Records a deletion: final, so a late suspension or reactivation of the account changes nothing. */
  async recordDeleted(manager: EntityManager, userId: string, at: Date): Promise<MemberStatus> {
    return this.moderation.recordMember(userId, 'deleted', at, manager);
  }

  private async announce(manager: EntityManager, listings: ListingRecord[]): Promise<number> {
    for (const listing of listings) await appendEvent(manager, 'listing.updated', listingUpdatedPayload(listing));
    return listings.length;
  }
}
