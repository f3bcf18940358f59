import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { correctedSearch, vocabularyOf, type Vocabulary, type VocabularyWord } from '@market/domain';
import { LISTINGS_CONFIG, type ListingsConfig } from '../listings.config';

// The most used words are kept: a typo is corrected towards what many listings say, and the memory stays bounded
// (50,000 words with their trigrams take a few megabytes) however many listings there are.
const VOCABULARY_WORDS = 50_000;
const READ_TIMEOUT_SECONDS = 120;

/**
 * The words live listings' titles use, for typo-tolerant search (ADR 0080): read with the 'simple' parser ( so
 * words as written, "e-commerce" whole) at start and again in the background once older than
 * SEARCH_VOCABULARY_MAX_AGE_MS, kept in memory. Only a search that matched nothing asks for it, so browse pays nothing
 * otherwise, and no search ever waits for a read: before the first one ends there is simply no suggestion.
 */
@Injectable()
export class SearchVocabulary implements OnApplicationBootstrap {
  private readonly logger = new Logger('SearchVocabulary');
  private current: { at: number; vocabulary: Vocabulary } | null = null;
  private reading: Promise<void> | null = null;
  private readonly maxAgeMs: number;

  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(LISTINGS_CONFIG) config: Pick<ListingsConfig, 'SEARCH_VOCABULARY_MAX_AGE_MS'> | null,
  ) {
    this.maxAgeMs = config?.SEARCH_VOCABULARY_MAX_AGE_MS ?? 600_000;
  }

  /** Read at start, in the background: no search waits for it. */
  onApplicationBootstrap(): void {
    void this.refresh();
  }

  /**
   * The search text corrected word by word, or null: when nothing would change, when no vocabulary has been read yet,
   * or when some active listing matches the text as written (then the filters, not the spelling, left the page empty).
   */
  async correct(text: string, matchesAsTyped: (text: string) => Promise<boolean | null> = async () => null): Promise<string | null> {
    const vocabulary = this.vocabulary();
    if (!vocabulary) return null;
    // The browse index knows at once (ADR 0081); else PostgreSQL's EXISTS.
    let used = await matchesAsTyped(text);
    if (used === null) {
      [{ used }] = (await this.dataSource.query(
        `SELECT EXISTS (SELECT 1 FROM listings WHERE status = 'active' AND search @@ websearch_to_tsquery('english', $1)) AS used`,
        [text],
      )) as Array<{ used: boolean }>;
    }
    return used ? null : correctedSearch(text, vocabulary);
  }

  /** Reads the vocabulary now, or waits for the read under way; a failed read is logged and keeps the old words. */
  refresh(): Promise<void> {
    this.reading ??= this.read()
      .catch((error: unknown) => this.logger.warn(`Search vocabulary not read: ${(error as Error).message}`))
      .finally(() => (this.reading = null));
    return this.reading;
  }

  /** The vocabulary in memory (null before the first read), starting a new read in the background once it is old. */
  private vocabulary(): Vocabulary | null {
    if (!this.current || Date.now() - this.current.at >= this.maxAgeMs) void this.refresh();
    return this.current?.vocabulary ?? null;
  }

  private async read(): Promise<void> {
    const words = await this.dataSource.transaction(async (manager) => {
      // A background read of every live title: it may take seconds at a million listings, past the request path's
      // statement timeout, and no request waits on it.
      await manager.query(`SET LOCAL statement_timeout = '${READ_TIMEOUT_SECONDS}s'`);
      return (await manager.query(
        // A hash aggregate of each title's distinct words, not ts_stat: ts_stat keeps its words in a binary tree that is
        // not balanced, so titles with words of their own ("#48213") made it quadratic (4.7 s against 0.5 s at 90,000).
        `SELECT word, count(*)::int AS listings
         FROM listings, unnest(tsvector_to_array(to_tsvector('simple', title))) AS word
         WHERE status = 'active' AND length(word) >= 3 AND word ~ '[[:alpha:]]'
         GROUP BY word ORDER BY listings DESC, word LIMIT $1`,
        [VOCABULARY_WORDS],
      )) as VocabularyWord[];
    });
    this.current = { at: Date.now(), vocabulary: vocabularyOf(words) };
  }
}
