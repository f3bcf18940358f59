import { Injectable } from '@nestjs/common';
import type { Actor, WatchlistResponse } from '@market/contracts';
import { badRequest, notFound, requireActor } from '@market/server-kit';
import { ListingsRepository } from '../listings/listings.repository';
import { presentListing } from '../listings/listing.presenter';
import { authorizeWatch } from '../listings/listing.policy';
import { WatchlistRepository } from './watchlist.repository';
import { WatchRemindersRepository } from './watch-reminders.repository';

/** A user's watchlist (SPEC §7/§8): add once, list, remove, and its ending-soon reminders on or off (ADR 0074). */
@Injectable()
export class WatchlistService {
  constructor(
    private readonly watchlist: WatchlistRepository,
    private readonly listings: ListingsRepository,
    private readonly reminders: WatchRemindersRepository,
  ) {}

  /** Watches a listing the user can see; watching it twice is a 400 the web shows as is. */
  async add(actor: Actor | null, listingId: string): Promise<{ message: string }> {
    const user = requireActor(actor);
    const listing = await this.listings.findById(listingId);
    authorizeWatch(user, listing);
    const added = await this.watchlist.add(user.user_id, listingId);
    if (added === 'listing_gone') throw notFound('Listing not found');
    if (added === 'already') throw badRequest('This listing is already in your watchlist');
    return { message: 'Added to watchlist' };
  }

  async list(actor: Actor | null): Promise<WatchlistResponse> {
    const user = requireActor(actor);
    const [rows, reminders] = await Promise.all([this.watchlist.list(user.user_id), this.reminders.enabled(user.user_id)]);
    return {
      reminders,
      watchlist: rows.map(({ watched_at, listing }) => ({
        listing_id: listing.id,
        created_at: watched_at.toISOString(),
        listing: presentListing(listing, user),
      })),
    };
  }

  /** Turns the email 24 hours before a watched auction ends on or off for the user (ADR 0074). */
  async setReminders(actor: Actor | null, enabled: boolean): Promise<{ reminders: boolean }> {
    const user = requireActor(actor);
    await this.reminders.set(user.user_id, enabled);
    return { reminders: enabled };
  }

  async remove(actor: Actor | null, listingId: string): Promise<{ message: string }> {
    const user = requireActor(actor);
    if (!(await this.watchlist.remove(user.user_id, listingId))) throw notFound('This listing is not in your watchlist');
    return { message: 'Removed from watchlist' };
  }
}
