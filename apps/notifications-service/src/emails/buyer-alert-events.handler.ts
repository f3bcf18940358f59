import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers } from '@market/server-kit';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../notifications.config';
import { EmailQueue } from './email.queue';
import { SearchAlertsRepository } from './search-alerts.repository';
import { UserContacts } from './user-contacts';

/**
 * The buyers' alert emails of ADR 0074. Saved-search alerts: each match joins its search's open digest; the match
 * that opens one schedules its email for when the window allows, so a search mails at most once per
 * SEARCH_ALERT_INTERVAL_MS. The job is keyed by the digest, so a redelivered event queues nothing new. And the
 * "ending in 24 hours" reminder of a watched auction.
 */
@Injectable()
export class BuyerAlertEventsHandler implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
    private readonly alerts: SearchAlertsRepository,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('saved_search.matched', async (event, manager) => {
      const { matches, ...listing } = event.payload;
      const contacts = await this.contacts.findAll(matches.map((m) => m.user_id));
      for (const match of matches) {
        // A digest is named by the event and search that opened it (BullMQ job ids take no ':').
        const digest = await this.alerts.addMatch(manager, `${event.id}_${match.search_id}`, { ...listing, ...match }, this.config.SEARCH_ALERT_INTERVAL_MS);
        if (!digest.opened && !digest.overdue) continue;
        const user = contacts.get(match.user_id);
        if (!user) {
          if (digest.opened) await this.alerts.dropDigest(manager, digest.id);
          continue;
        }
        await this.queue.enqueue(
          `search_alert-${digest.id}`,
          { kind: 'search_alert', digest_id: digest.id, to: user.email, username: user.username },
          { delayMs: digest.opened && digest.delayMs > 0 ? digest.delayMs : undefined },
        );
      }
    });
    // One reminder per watcher and auction, decided by listings-service's sweep; the job is keyed by the event.
    await this.consumers.subscribe('watch.ending_soon', async (event) => {
      const user = await this.contacts.find(event.payload.user_id);
      if (!user) return;
      const { listing_id, listing_title, expires_at, current_price, bid_count, unsubscribe_token } = event.payload;
      await this.queue.enqueue(`watch_ending-${event.id}`, {
        kind: 'watch_ending',
        to: user.email,
        username: user.username,
        ending: { listing_id, listing_title, expires_at, current_price, bid_count, unsubscribe_token },
      });
    });
  }
}
