import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers, OutboxRelay } from '@market/server-kit';
import { ListingsService } from './listings.service';
import { WatchlistRepository } from '../watchlist/watchlist.repository';

/** D17: when an account is deleted its unsold listings leave the market and its watchlist is forgotten. */
@Injectable()
export class SellerEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly listings: ListingsService,
    private readonly watchlist: WatchlistRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('user.deleted', async (event, manager) => {
      await this.listings.withdrawSeller(manager, event.payload.user_id);
      await this.watchlist.removeUser(event.payload.user_id, manager);
      setImmediate(() => this.relay.kick());
    });
  }
}
