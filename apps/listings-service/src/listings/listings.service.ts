import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  type Actor,
  type AdminListingDto,
  type AdminUpdateListing,
  type CreateListing,
  type ListingChange,
  type ListingDeleted,
  type ListingDto,
  type UpdateListing,
} from '@market/contracts';
import { lockedFieldsMessage, MAX_SCREENSHOTS, ownerStatusChange, type ListingStatus } from '@market/domain';
import {
  AppError,
  appendEvent,
  badRequest,
  conflict,
  notFound,
  OutboxRelay,
  requireActor,
  requireMayCommit,
  requireAdmin,
  SettingsClient,
} from '@market/server-kit';
import { ListingsRepository, type ListingRecord } from './listings.repository';
import { presentListing } from './listing.presenter';
import { authorizeListingUpdate, listingAbilities } from './listing.policy';
import { VerifiedFiguresService } from '../verification/verified-figures.service';
import { SellerDirectory } from './seller-directory';
import { recordListingAct } from './listing-audit';
import { SellerModerationRepository } from './seller-moderation.repository';
import { applyEdit, editPricingIssues, invalid, reviewedEdit } from './listing-edit';
import { listingUpdatedPayload } from './sale-terms.service';

const NOT_FOUND = 'Listing not found';
const SOLD_IS_FINAL = 'This listing has been sold; a sale is final';

/** Listings' changes: create, review (D16), edit, status changes and deletion; access is checked first. Reads are ListingReadsService's. */
@Injectable()
export class ListingsService {
  constructor(
    private readonly listings: ListingsRepository,
    private readonly sellers: SellerDirectory,
    private readonly settings: SettingsClient,
    private readonly relay: OutboxRelay,
    private readonly moderation: SellerModerationRepository,
    private readonly figures: VerifiedFiguresService,
  ) {}

  /**
   * A new listing from its seller: pending review, or live at once when auto_approve is on. Listing needs a verified
   * email while the platform requires one (ADR 0037).
   */
  async create(actor: Actor | null, input: CreateListing, screenshots: string[]): Promise<ListingDto> {
    const settings = await this.settings.get();
    const seller = requireMayCommit(actor, 'list', settings);
    if (screenshots.length > MAX_SCREENSHOTS) throw badRequest(`At most ${MAX_SCREENSHOTS} screenshots`);
    const { auto_approve } = settings;
    const created = await this.listings.transaction(async (manager) => {
      const listing = await this.listings.insert(seller.user_id, input, 'pending', screenshots, manager);
      return auto_approve ? this.approveIn(manager, listing) : listing;
    });
    this.relay.kick();
    return presentListing(created, seller);
  }

  /**
   * The edit form (SPEC §5): the required fields again, the optional ones when they change (a field left out keeps its
   * stored value, ADR 0036), the screenshots to keep plus new ones, and optionally a status.
   */
  async update(actor: Actor | null, id: string, input: UpdateListing, added: string[]): Promise<ListingChange> {
    const editor = requireActor(actor);
    const { auto_approve } = await this.settings.get();
    const result = await this.listings.transaction(async (manager) => {
      const current = await this.managed(manager, editor, id);
      if (current.status === 'sold') throw badRequest('A sold listing cannot be edited');
      if (current.status === 'cancelled') throw conflict('A cancelled listing cannot be edited');
      const kept = input.existing_screenshots ?? current.screenshots;
      const unknown = kept.filter((key) => !current.screenshots.includes(key));
      if (unknown.length) throw invalid(['existing_screenshots'], 'Not a screenshot of this listing');
      const screenshots = [...new Set(kept), ...added];
      if (screenshots.length > MAX_SCREENSHOTS) throw invalid(['screenshots'], `At most ${MAX_SCREENSHOTS} screenshots in all`);
      const listing = applyEdit(current, input);
      const pricing = editPricingIssues(listing);
      if (pricing.length) throw new AppError('validation_failed', pricing);
      const review = reviewedEdit(current, listing, editor, auto_approve);
      if (review.kind === 'locked') throw conflict(lockedFieldsMessage(review.fields));
      let updated = await this.listings.updateFields(id, listing, screenshots, manager);
      // An edited claim is held against its verified figures again (D24): the card's badge follows at once.
      const flags = (await this.figures.syncFlags([id], manager)).get(id);
      if (flags) updated = { ...updated, ...flags };
      if (review.kind === 'review') {
        // What the review vouched for changed: reviewed again before it takes bids (ADR 0042); only a move to draft still applies.
        updated = await this.listings.sendBackToReview(id, manager);
        if (input.status === 'draft') updated = await this.changeStatus(manager, editor, updated, 'draft', auto_approve);
      } else if (input.status) {
        updated = await this.changeStatus(manager, editor, updated, input.status, auto_approve);
      }
      if (listingAbilities(editor, current).audited) await recordListingAct(manager, editor, 'listing.edited', current, updated);
      await this.announceUpdate(manager, updated);
      return { updated, removed: current.screenshots.filter((key) => !screenshots.includes(key)) };
    });
    this.relay.kick();
    return { listing: presentListing(result.updated, editor), removed_screenshots: result.removed };
  }

  /** The owner's pause/activate (JSON {status}). */
  async setStatus(actor: Actor | null, id: string, status: ListingStatus): Promise<ListingDto> {
    const editor = requireActor(actor);
    const { auto_approve } = await this.settings.get();
    const updated = await this.listings.transaction(async (manager) => {
      const current = await this.managed(manager, editor, id);
      const changed = await this.changeStatus(manager, editor, current, status, auto_approve);
      if (listingAbilities(editor, current).audited) await recordListingAct(manager, editor, 'listing.status_changed', current, changed);
      await this.announceUpdate(manager, changed);
      return changed;
    });
    this.relay.kick();
    return presentListing(updated, editor);
  }

  /**
   * Deletes a listing (its seller, unless sold; or an admin). A listing with bids is never deleted: bidders committed to
   * it, so only an admin's cancellation with a reason, which tells them, ends it (ADR 0042).
   */
  async delete(actor: Actor | null, id: string): Promise<ListingDeleted> {
    const editor = requireActor(actor);
    const removed = await this.listings.transaction(async (manager) => {
      const current = await this.managed(manager, editor, id);
      const { moderate } = listingAbilities(editor, current);
      if (current.status === 'sold' && !moderate) throw badRequest('A sold listing cannot be deleted');
      if (current.status === 'cancelled' && !moderate) throw conflict('A cancelled listing is kept as a record and cannot be deleted');
      if (current.bid_count > 0 && current.status !== 'sold' && current.status !== 'cancelled') {
        throw conflict(
          moderate
            ? 'This listing has bids: cancel it with a reason instead, so every bidder is told.'
            : 'This listing has bids, so it cannot be deleted. You can pause it, or contact support to cancel the sale.',
        );
      }
      await this.listings.remove(id, manager);
      await appendEvent(manager, 'listing.deleted', { listing_id: id, seller_id: current.seller_id, deleted_by: editor.user_id });
      if (listingAbilities(editor, current).audited) await recordListingAct(manager, editor, 'listing.deleted', current, null);
      return current.screenshots;
    });
    this.relay.kick();
    return { message: 'Listing deleted', removed_screenshots: removed };
  }

  /**
   * Feature/unfeature or set a status (D16: active, pending, sold, expired); activating a new listing approves it. The
   * act is audited in its transaction (ADR 0032), as is an admin's edit, status change or deletion of another's listing.
   */
  async adminUpdate(actor: Actor | null, id: string, changes: AdminUpdateListing): Promise<AdminListingDto> {
    const admin = requireAdmin(actor);
    const updated = await this.listings.transaction(async (manager) => {
      const current = await this.listings.findById(id, manager, true);
      if (!current) throw notFound(NOT_FOUND);
      let next: ListingRecord;
      if (changes.featured !== undefined) {
        next = await this.listings.setFeatured(id, changes.featured, manager);
      } else if (changes.status === 'active' && current.status === 'sold') {
        throw badRequest(SOLD_IS_FINAL);
      } else if (changes.status !== undefined && current.status === 'cancelled') {
        throw conflict('A cancelled listing is final; the seller can list the site again as a new listing');
      } else if (changes.status === 'active' && current.status !== 'active' && (current.status === 'expired' || !liveUntilLater(current))) {
        // Never approved, or its sale ended: going live starts a new period, which the bidding service reopens.
        next = await this.approveIn(manager, current);
      } else if (changes.status === 'pending') {
        // Back to review means reviewed again: the seller cannot take it live through draft (D16).
        next = await this.listings.sendBackToReview(id, manager);
      } else {
        next = await this.listings.setStatus(id, changes.status as ListingStatus, manager);
      }
      const featured = changes.featured ? 'listing.featured' : 'listing.unfeatured';
      await recordListingAct(manager, admin, changes.featured === undefined ? 'listing.status_changed' : featured, current, next);
      await this.announceUpdate(manager, next);
      return next;
    });
    this.relay.kick();
    const profiles = await this.sellers.profiles([updated.seller_id]);
    return { ...presentListing(updated, admin), seller_username: profiles.get(updated.seller_id)?.username ?? null };
  }

  /**
   * An admin cancels a listing for good with a reason (ADR 0042): the listing reads cancelled, the act is audited, and
   * listing.cancelled commits with it so bidding ends the sale, rejects its bids and has every bidder told.
   */
  async adminCancel(actor: Actor | null, id: string, reason: string): Promise<AdminListingDto> {
    const admin = requireAdmin(actor);
    const cancelled = await this.listings.transaction(async (manager) => {
      const current = await this.listings.findById(id, manager, true);
      if (!current) throw notFound(NOT_FOUND);
      if (current.status === 'sold') throw conflict('This listing has been sold: cancel the unpaid sale from its invoice instead.');
      if (current.status === 'cancelled') throw conflict('This listing is already cancelled.');
      const now = new Date();
      const next = await this.listings.cancel(id, reason, now, manager);
      if (!next) throw conflict('This listing changed while you were cancelling it; reload and try again.');
      await recordListingAct(manager, admin, 'listing.cancelled', current, next);
      await this.announceUpdate(manager, next);
      await appendEvent(manager, 'listing.cancelled', {
        listing_id: id,
        seller_id: next.seller_id,
        listing_title: next.title,
        reason,
        cancelled_by: admin.user_id,
        cancelled_at: now.toISOString(),
      });
      return next;
    });
    this.relay.kick();
    const profiles = await this.sellers.profiles([cancelled.seller_id]);
    return { ...presentListing(cancelled, admin), seller_username: profiles.get(cancelled.seller_id)?.username ?? null };
  }

  /** D17: a deleted seller's unsold listings leave the market; called by the user.deleted consumer. */
  async withdrawSeller(manager: EntityManager, sellerId: string): Promise<void> {
    for (const listing of await this.listings.withdrawBySeller(sellerId, manager)) await this.announceUpdate(manager, listing);
  }

  /**
   * The bidding service ended a sale (sold or expired): the listing follows and says so; called by its consumers. A sold
   * auction shows the price it sold at (which may be below the highest bid when the seller accepted another).
   */
  async applySaleEnd(manager: EntityManager, listingId: string, status: 'sold' | 'expired', price: number | null = null): Promise<void> {
    const ended = await this.listings.endSale(listingId, status, price, manager);
    if (ended) await this.announceUpdate(manager, ended);
  }

  /** Loads a listing for a change, locked, once the policy lets the editor change it. */
  private async managed(manager: EntityManager, editor: Actor, id: string): Promise<ListingRecord> {
    const current = await this.listings.findById(id, manager, true);
    authorizeListingUpdate(editor, current, NOT_FOUND);
    return current;
  }

  private async changeStatus(
    manager: EntityManager,
    editor: Actor,
    current: ListingRecord,
    requested: ListingStatus,
    autoApprove: boolean,
  ): Promise<ListingRecord> {
    const { moderate } = listingAbilities(editor, current);
    // An admin saving the edit form of a listing under review approves it.
    const approved = current.approved_at !== null || moderate;
    const outcome =
      moderate && current.status === 'pending' && requested === 'active'
        ? { status: 'active' as const }
        : ownerStatusChange(current.status, requested, { approved, autoApprove });
    if ('refused' in outcome) throw badRequest(outcome.refused);
    if (outcome.status === current.status) return current;
    if (outcome.status === 'active' && current.status === 'sold') throw badRequest(SOLD_IS_FINAL);
    if (outcome.status === 'active' && !current.approved_at) return this.approveIn(manager, current);
    // An ended sale (expired, or past its end) only comes back as a new period, which the bidding service reopens.
    if (outcome.status === 'active' && (current.status === 'expired' || !liveUntilLater(current))) {
      if (!moderate) throw badRequest('This listing has ended and cannot be activated again');
      return this.approveIn(manager, current);
    }
    return this.listings.setStatus(current.id, outcome.status, manager);
  }

  /** Approval (D16): active now, ending duration_days later; listing.approved carries what bidding and email need. */
  private async approveIn(manager: EntityManager, listing: ListingRecord): Promise<ListingRecord> {
    // A suspended seller's listing waits (ADR 0038): going live would run a sale its close must refuse to sell.
    if ((await this.moderation.statusOf(listing.seller_id, manager)) !== 'active') {
      throw conflict("This listing's seller is suspended or deleted: approve it once their account is active again.");
    }
    const approved = await this.listings.approve(listing.id, new Date(), manager);
    if (!approved) throw badRequest(`A ${listing.status} listing cannot be approved`);
    await appendEvent(manager, 'listing.approved', {
      listing_id: approved.id,
      seller_id: approved.seller_id,
      title: approved.title,
      website_url: approved.website_url,
      listing_type: approved.listing_type,
      auction_type: approved.auction_type,
      starting_price: approved.starting_price,
      reserve_price: approved.reserve_price,
      buy_now_price: approved.buy_now_price,
      approved_at: (approved.approved_at as Date).toISOString(),
      expires_at: (approved.expires_at as Date).toISOString(),
      updated_at: approved.updated_at.toISOString(),
    });
    return approved;
  }

  private async announceUpdate(manager: EntityManager, listing: ListingRecord): Promise<void> {
    await appendEvent(manager, 'listing.updated', listingUpdatedPayload(listing));
  }
}

/** Approved and not yet past its end: it can go (back) live on its current period. */
function liveUntilLater(listing: ListingRecord, now = Date.now()): boolean {
  return listing.approved_at !== null && listing.expires_at !== null && listing.expires_at.getTime() > now;
}
