// Typo-tolerant browse search (ADR 0080): a search that matches nothing is tried once more with each unknown word
// replaced by the closest word the live listings use ("ecomerce" → "e-commerce"). Closeness is trigram similarity,
// as PostgreSQL's pg_trgm counts it: the share of three-letter pieces two words have in common.

/** How alike two words must be (0..1) for one to stand in for the other. */
export const SPELLING_THRESHOLD = 0.4;
/** Words shorter than this are never corrected: too few trigrams to tell a typo from another word. */
export const MIN_CORRECTED_LENGTH = 4;

/** The word's trigrams: lower-cased, each alphanumeric run padded with two spaces before and one after (pg_trgm's way). */
export function trigrams(word: string): Set<string> {
  const grams = new Set<string>();
  for (const run of word.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!run) continue;
    const padded = `  ${run} `;
    for (let i = 0; i + 3 <= padded.length; i += 1) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/** Trigram similarity of two words: shared trigrams over all distinct trigrams of both (0 when either has none). */
export function similarity(a: string, b: string): number {
  const left = trigrams(a);
  const right = trigrams(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const gram of left) if (right.has(gram)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/** A word the live listings use, with how many listings use it (the more used wins a tie). */
export interface VocabularyWord {
  word: string;
  listings: number;
}

/** Prepared for repeated lookups: the words by themselves and with their trigrams. */
export interface Vocabulary {
  known: Set<string>;
  words: Array<VocabularyWord & { grams: Set<string> }>;
}

/** Builds the lookup structure of a vocabulary (lower-cased words, each once). */
export function vocabularyOf(words: readonly VocabularyWord[]): Vocabulary {
  const byWord = new Map<string, number>();
  for (const { word, listings } of words) {
    const key = word.toLowerCase();
    byWord.set(key, Math.max(byWord.get(key) ?? 0, listings));
  }
  return {
    known: new Set(byWord.keys()),
    words: [...byWord].map(([word, listings]) => ({ word, listings, grams: trigrams(word) })),
  };
}

/** The closest known word to `word` at or above the threshold, or null. */
export function closestWord(word: string, vocabulary: Vocabulary): string | null {
  const grams = trigrams(word);
  if (grams.size === 0) return null;
  let best: { word: string; score: number; listings: number } | null = null;
  for (const candidate of vocabulary.words) {
    let shared = 0;
    for (const gram of grams) if (candidate.grams.has(gram)) shared += 1;
    if (shared === 0) continue;
    const score = shared / (grams.size + candidate.grams.size - shared);
    if (score < SPELLING_THRESHOLD) continue;
    if (!best || score > best.score || (score === best.score && candidate.listings > best.listings)) best = { word: candidate.word, score, listings: candidate.listings };
  }
  return best?.word ?? null;
}

/**
 * The search text with each plain word the vocabulary does not know replaced by its closest known word; null when
 * nothing changed. Quoted phrases, excluded words (-word), `or` and short words are left as written: they are the
 * searcher's own syntax or too short to correct safely.
 */
export function correctedSearch(text: string, vocabulary: Vocabulary): string | null {
  let changed = false;
  let quoted = false;
  const corrected = text.split(/(\s+)/).map((token) => {
    const quotes = (token.match(/"/g) ?? []).length;
    const inside = quoted || quotes > 0;
    if (quotes % 2 === 1) quoted = !quoted;
    if (inside || token.startsWith('-') || !/^[\p{L}\p{N}][\p{L}\p{N}'-]*$/u.test(token)) return token;
    const word = token.toLowerCase();
    if (word === 'or' || word.length < MIN_CORRECTED_LENGTH || vocabulary.known.has(word)) return token;
    const closest = closestWord(word, vocabulary);
    if (!closest || closest === word) return token;
    changed = true;
    return closest;
  });
  return changed ? corrected.join('') : null;
}
