import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RPC, type Actor } from '@market/contracts';
import { AppError, ServiceRpc } from '@market/server-kit';
import { AuctionsRepository, type AppliedTerms, type ListingTerms } from '../auctions/auctions.repository';
import { CloseJobs } from '../close/close-jobs';

/**
 * Each listing's sale terms here: from listing events, or, for a bid, offer or buy-now on a listing whose
 * listing.approved has not been consumed yet, asked of listings-service (`listings.sale_terms`, ADR 0036). Both are
 * applied the same way, versioned by the listing's updated_at, so a later event still wins and an older one is ignored.
 */
@Injectable()
export class SaleTermsKeeper {
  constructor(
    private readonly auctions: AuctionsRepository,
    private readonly closeJobs: CloseJobs,
    private readonly rpc: ServiceRpc,
  ) {}

  /** Applies a listing's terms unless newer ones are here already; `reopen` is a re-approval (listing.approved). */
  async apply(terms: ListingTerms, manager: EntityManager, reopen = false): Promise<AppliedTerms | null> {
    const applied = await this.auctions.applyListing(terms, manager, reopen);
    this.scheduleClose(terms.listing_id, applied);
    return applied;
  }

  /**
   * Learns the terms of a listing this service has not heard of, asking listings-service with the caller's token.
   * False when listings-service knows no active listing by that id (the caller's 404); its other errors pass through.
   */
  async learn(actor: Actor, listingId: string): Promise<boolean> {
    let terms: ListingTerms;
    try {
      terms = await this.rpc.call(RPC.listings.saleTerms, { listing_id: listingId }, actor);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return false;
      throw error;
    }
    // Applied as listing.updated would be: never reopening a sale that ended here meanwhile.
    await this.auctions.transaction((manager) => this.apply(terms, manager));
    return true;
  }

  /**
   * A live sale gets its close job, without waiting: the applying transaction holds the auction row, so Redis must
   * never hold it up (schedule is best effort; a job that runs before the commit finds nothing due, and the sweep
   * closes it).
   */
  private scheduleClose(listingId: string, applied: AppliedTerms | null): void {
    if (applied?.expires_at && applied.status !== 'sold' && applied.status !== 'expired') void this.closeJobs.schedule(listingId, applied.expires_at);
  }
}
