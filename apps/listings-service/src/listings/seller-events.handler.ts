import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers, OutboxRelay } from '@market/server-kit';
import { ListingsService } from './listings.service';
import { SellerModerationService } from './seller-moderation.service';
import { WatchlistRepository } from '../watchlist/watchlist.repository';
import { SavedSearchRepository } from '../saved-searches/saved-search.repository';
import { WatchRemindersRepository } from '../watchlist/watch-reminders.repository';
import { VerificationRepository } from '../verification/verification.repository';

/**
 * D17: when an account is deleted its unsold listings leave the market and its watchlist, saved searches and verified figures' connections
 * are forgotten. ADR 0038: a
 * suspension pauses the seller's live listings and a reactivation restores exactly those.
 */
@Injectable()
export class SellerEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly listings: ListingsService,
    private readonly moderation: SellerModerationService,
    private readonly watchlist: WatchlistRepository,
    private readonly savedSearches: SavedSearchRepository,
    private readonly reminders: WatchRemindersRepository,
    private readonly verifications: VerificationRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('user.deleted', async (event, manager) => {
      await this.moderation.recordDeleted(manager, event.payload.user_id, new Date(event.occurred_at));
      await this.listings.withdrawSeller(manager, event.payload.user_id);
      await this.watchlist.removeUser(event.payload.user_id, manager);
      await this.savedSearches.removeUser(event.payload.user_id, manager);
      await this.reminders.removeUser(event.payload.user_id, manager);
      // Their Stripe keys, Google tokens and every figure read with them go too (ADR 0084).
      await this.verifications.removeSeller(event.payload.user_id, manager);
      setImmediate(() => this.relay.kick());
    });
    await this.consumers.subscribe('user.suspended', async (event, manager) => {
      if ((await this.moderation.suspend(manager, event.payload.user_id, new Date(event.payload.at))) > 0) setImmediate(() => this.relay.kick());
    });
    await this.consumers.subscribe('user.reactivated', async (event, manager) => {
      if ((await this.moderation.reactivate(manager, event.payload.user_id, new Date(event.payload.at))) > 0) setImmediate(() => this.relay.kick());
    });
  }
}
