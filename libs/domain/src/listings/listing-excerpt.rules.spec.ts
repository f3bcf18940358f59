import { LISTING_EXCERPT_CHARS, listingExcerpt } from './listing-excerpt.rules';

describe('listingExcerpt (ADR 0082)', () => {
  it('keeps a short description whole, its whitespace runs as one space', () => {
    expect(listingExcerpt('  A blog\n\nabout   coffee. ')).toBe('A blog about coffee.');
    expect(listingExcerpt('')).toBe('');
  });

  it('keeps a description of exactly the limit whole', () => {
    const text = 'x'.repeat(LISTING_EXCERPT_CHARS);
    expect(listingExcerpt(text)).toBe(text);
  });

  it('cuts a long one at a word near the end, with an ellipsis, never past the limit', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const excerpt = listingExcerpt(words);
    expect(Array.from(excerpt).length).toBeLessThanOrEqual(LISTING_EXCERPT_CHARS);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(words.startsWith(excerpt.slice(0, -1))).toBe(true);
    // Cut between words: what precedes the ellipsis is a whole word of the text.
    expect(words.split(' ')).toContain(excerpt.slice(0, -1).split(' ').pop());
  });

  it('cuts a text with no space in its last fifth at the limit', () => {
    const text = `${'a'.repeat(100)} ${'b'.repeat(400)}`;
    const excerpt = listingExcerpt(text);
    expect(Array.from(excerpt)).toHaveLength(LISTING_EXCERPT_CHARS);
    expect(excerpt).toBe(`${text.slice(0, LISTING_EXCERPT_CHARS - 1)}…`);
  });

  it('counts characters, not UTF-16 units, and never splits a pair', () => {
    const text = '☕'.repeat(150) + '🍩'.repeat(150);
    const excerpt = listingExcerpt(text);
    expect(Array.from(excerpt)).toHaveLength(LISTING_EXCERPT_CHARS);
    expect(excerpt).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('listingExcerpt on long and odd texts (ADR 0082)', () => {
  it('reads a very long description only as far as it needs, and marks it cut', () => {
    const text = `${'word '.repeat(10_000)}end`;
    const excerpt = listingExcerpt(text);
    expect(Array.from(excerpt).length).toBeLessThanOrEqual(LISTING_EXCERPT_CHARS);
    expect(excerpt).toMatch(/^word( word)*…$/);
  });

  it('marks as cut a description whose start is mostly whitespace', () => {
    const excerpt = listingExcerpt(`Start${' '.repeat(5_000)}and more`);
    expect(excerpt).toBe('Start…');
  });

  it('keeps a text of exactly the limit in characters with pairs whole', () => {
    const text = '🍩'.repeat(LISTING_EXCERPT_CHARS);
    expect(listingExcerpt(text)).toBe(text);
  });
});
