import { Injectable, Logger } from '@nestjs/common';
import type { BrowseListingsQuery, BrowseListingsResponse } from '@market/contracts';
import { totalAndFacets } from './browse-query';
import { ListingsRepository } from './listings.repository';
import { presentCard } from './listing.presenter';
import { SearchVocabulary } from './search-vocabulary';
import { BrowseIndexFeed } from './browse-index/browse-index.feed';

/** Browse (SPEC §2): a page of active listings, the same for every caller (the gateway shares pages between them). */
@Injectable()
export class BrowseService {
  private readonly logger = new Logger('Browse');

  constructor(
    private readonly listings: ListingsRepository,
    private readonly vocabulary: SearchVocabulary,
    private readonly index: BrowseIndexFeed,
  ) {}

  /**
   * One page with its total and facets. A search that matched nothing is tried once more as listings spell its words
   * (ADR 0080): when that finds listings, they are the answer, with the search it was for.
   */
  async browse(query: BrowseListingsQuery): Promise<BrowseListingsResponse> {
    const asked = await this.page(query);
    if (asked.total > 0 || !query.search) return { ...asked, corrected_search: null };
    const corrected = await this.vocabulary.correct(query.search, (text) => this.index.matchesAny(text)).catch((error: unknown) => {
      // A suggestion is a courtesy: its failure leaves the empty answer as it was.
      this.logger.warn(`No spelling suggestion for a search (${(error as Error).message})`);
      return null;
    });
    if (!corrected) return { ...asked, corrected_search: null };
    const retried = await this.page({ ...query, search: corrected });
    return retried.total > 0 ? { ...retried, corrected_search: corrected } : { ...asked, corrected_search: null };
  }

  private async page(query: BrowseListingsQuery): Promise<Omit<BrowseListingsResponse, 'corrected_search'>> {
    // The index chooses the page and counts it (ADR 0081); PostgreSQL gives the page's rows, or all of it without one.
    const fromIndex = await this.index.answer(query);
    const { listings, grid } = fromIndex
      ? { listings: await this.listings.activeCardsByIds(fromIndex.ids), grid: fromIndex.grid }
      : await this.listings.browse(query);
    const { total, facets } = totalAndFacets(grid, query);
    return {
      // Cards, not whole listings: a page carries what it shows (ADR 0082).
      listings: listings.map(presentCard),
      total,
      page: query.page,
      pages: Math.max(1, Math.ceil(total / query.limit)),
      limit: query.limit,
      facets,
    };
  }
}
