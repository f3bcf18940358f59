import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { SAVED_SEARCH_MATCHES_PER_EVENT } from '@market/contracts';
import { appendEvent, EventConsumers, OutboxRelay } from '@market/server-kit';
import { SavedSearchRepository } from './saved-search.repository';

/**
 * Matches each listing that goes live against the saved searches (ADR 0074), from listing.approved and not on the
 * approval itself: approving costs the same whatever the number of searches, and browse pays nothing. The new matches
 * with alerts on are announced in the same transaction, SAVED_SEARCH_MATCHES_PER_EVENT to a saved_search.matched, each
 * with the unsubscribe token made when its search was saved (nothing is signed per match); matches are recorded once,
 * so a redelivered event announces nothing twice.
 */
@Injectable()
export class SavedSearchMatcher implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly searches: SavedSearchRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('listing.approved', async (event, manager) => {
      const matches = await this.searches.recordMatches(manager, event.payload.listing_id);
      for (let at = 0; at < matches.length; at += SAVED_SEARCH_MATCHES_PER_EVENT) {
        const [first, ...rest] = matches.slice(at, at + SAVED_SEARCH_MATCHES_PER_EVENT);
        await appendEvent(manager, 'saved_search.matched', {
          listing_id: first.listing_id,
          listing_title: first.listing_title,
          listing_type: first.listing_type,
          category: first.category,
          price: Number(first.price),
          matched_at: first.matched_at.toISOString(),
          matches: [first, ...rest].map(({ search_id, user_id, search_name, unsubscribe_token }) => ({ search_id, user_id, search_name, unsubscribe_token })),
        });
      }
      if (matches.length > 0) setImmediate(() => this.relay.kick());
    });
  }
}
