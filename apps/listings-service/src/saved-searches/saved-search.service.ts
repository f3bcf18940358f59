import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { MAX_SAVED_SEARCHES, type Actor, type CreateSavedSearch, type SavedSearchDto, type SavedSearchesResponse, type UpdateSavedSearch } from '@market/contracts';
import { badRequest, conflict, notFound, requireActor } from '@market/server-kit';
import { SavedSearchRepository, type SavedSearchRow } from './saved-search.repository';
import { UnsubscribeLinks, type UnsubscribeTarget } from './unsubscribe-links';
import { WatchRemindersRepository } from '../watchlist/watch-reminders.repository';

const NOT_FOUND = 'Saved search not found';

/** A stored search as its owner sees it: only the filters it has, money as whole dollars. */
export function presentSavedSearch(row: SavedSearchRow): SavedSearchDto {
  const dollars = (value: string | null) => (value === null ? undefined : Number(value));
  const filters: SavedSearchDto['filters'] = { listing_type: row.listing_type };
  if (row.search) filters.search = row.search;
  if (row.category) filters.category = row.category as SavedSearchDto['filters']['category'];
  for (const key of ['min_price', 'max_price', 'min_revenue', 'max_revenue'] as const) {
    const value = dollars(row[key]);
    if (value !== undefined) filters[key] = value;
  }
  return { id: row.id, name: row.name, filters, alerts: row.alerts, matches: row.matches, created_at: row.created_at.toISOString() };
}

/**
 * Saved searches (ADR 0074): each signed-in user keeps at most MAX_SAVED_SEARCHES, sees and changes only their own
 * (another user's id is a 404, never a 403 that would confirm it exists), and an alert email's signed link turns
 * one search's alerts off without a sign-in.
 */
@Injectable()
export class SavedSearchService {
  constructor(
    private readonly searches: SavedSearchRepository,
    private readonly links: UnsubscribeLinks,
    private readonly reminders: WatchRemindersRepository,
  ) {}

  async list(actor: Actor | null): Promise<SavedSearchesResponse> {
    const user = requireActor(actor);
    const rows = await this.searches.list(user.user_id);
    return { saved_searches: rows.map(presentSavedSearch), limit: MAX_SAVED_SEARCHES };
  }

  async create(actor: Actor | null, input: CreateSavedSearch): Promise<SavedSearchDto> {
    const user = requireActor(actor);
    const saved = await this.searches.create(user.user_id, input, MAX_SAVED_SEARCHES, (id) => this.links.tokenFor({ kind: 'saved_search', id }));
    if (saved === 'no_words') throw badRequest('The search text has only common words (like "the"), which match nothing: add a word that says what you want');
    if (saved === 'full') throw conflict(`You have ${MAX_SAVED_SEARCHES} saved searches, the most an account may keep; delete one to save another`);
    if ('duplicate' in saved) throw conflict(`You already saved these filters as "${saved.duplicate}"`);
    return presentSavedSearch(saved);
  }

  async update(actor: Actor | null, id: string, change: UpdateSavedSearch): Promise<SavedSearchDto> {
    const user = requireActor(actor);
    const updated = await this.searches.update(user.user_id, id, change);
    if (!updated) throw notFound(NOT_FOUND);
    return presentSavedSearch(updated);
  }

  async remove(actor: Actor | null, id: string): Promise<{ message: string }> {
    const user = requireActor(actor);
    if (!(await this.searches.remove(user.user_id, id))) throw notFound(NOT_FOUND);
    return { message: 'Saved search deleted' };
  }

  /**
   * Follows a signed link: a search's alerts stop, or the user's ending-soon reminders; again, or once the search is
   * deleted, it answers the same. A search's link signed with a key since retired still works: it is the token stored
   * with the search when it was saved, compared whole.
   */
  async unsubscribe(token: string): Promise<{ message: string }> {
    const target = this.links.read(token) ?? (await this.storedSearchLink(token));
    if (!target) throw badRequest('This unsubscribe link is not valid');
    if (target.kind === 'watch_reminders') {
      await this.reminders.set(target.user_id, false);
      return { message: 'You will get no more reminders before watched auctions end' };
    }
    const name = await this.searches.stopAlerts(target.id);
    return { message: name === null ? 'You will get no more alerts for this search' : `You will get no more alerts for "${name}"` };
  }

  private async storedSearchLink(token: string): Promise<UnsubscribeTarget | null> {
    const claimed = this.links.claimed(token);
    if (claimed?.kind !== 'saved_search') return null;
    const stored = await this.searches.unsubscribeToken(claimed.id);
    const [given, kept] = [Buffer.from(token), Buffer.from(stored ?? '')];
    return given.length === kept.length && timingSafeEqual(given, kept) ? claimed : null;
  }
}
