import { closestWord, correctedSearch, similarity, trigrams, vocabularyOf } from './search-spelling.rules';

const vocabulary = vocabularyOf([
  { word: 'e-commerce', listings: 40 },
  { word: 'commerce', listings: 3 },
  { word: 'newsletter', listings: 25 },
  { word: 'recipes', listings: 12 },
  { word: 'recipe', listings: 30 },
  { word: 'marketing', listings: 8 },
  { word: 'Shopify', listings: 5 },
]);

describe('search spelling (ADR 0080)', () => {
  it("counts trigrams as pg_trgm does: lower-cased, each word padded, separators split words", () => {
    expect([...trigrams('Cat')].sort()).toEqual(['  c', ' ca', 'at ', 'cat'].sort());
    expect([...trigrams('e-commerce')]).toEqual(expect.arrayContaining(['  e', ' e ', '  c', 'com', 'ce ']));
    expect(trigrams('--')).toEqual(new Set());
  });

  it('scores identical words 1, unrelated ones 0, and a typo in between', () => {
    expect(similarity('newsletter', 'NEWSLETTER')).toBe(1);
    expect(similarity('newsletter', 'quiz')).toBe(0);
    expect(similarity('ecomerce', 'e-commerce')).toBeCloseTo(6 / 14, 5);
    expect(similarity('', 'word')).toBe(0);
  });

  it('finds the closest known word above the threshold; nothing close enough is null', () => {
    expect(closestWord('ecomerce', vocabulary)).toBe('e-commerce');
    expect(closestWord('newsleter', vocabulary)).toBe('newsletter');
    expect(closestWord('zebra', vocabulary)).toBeNull();
  });

  it('prefers the more used word when two are as close', () => {
    const tie = vocabularyOf([
      { word: 'abcd', listings: 1 },
      { word: 'abce', listings: 9 },
    ]);
    expect(similarity('abcx', 'abcd')).toBe(similarity('abcx', 'abce'));
    expect(closestWord('abcx', tie)).toBe('abce');
  });

  it('corrects each unknown plain word and keeps the rest of the text as written', () => {
    expect(correctedSearch('ecomerce', vocabulary)).toBe('e-commerce');
    expect(correctedSearch('Newsleter  about recipies', vocabulary)).toBe('newsletter  about recipes');
    // Known words, short words, "or", excluded words and quoted phrases are the searcher's own.
    expect(correctedSearch('recipe newsletter', vocabulary)).toBeNull();
    expect(correctedSearch('seo or ecomerce -newsleter "markting tips"', vocabulary)).toBe('seo or e-commerce -newsleter "markting tips"');
    expect(correctedSearch('shopify', vocabulary)).toBeNull();
    expect(correctedSearch('', vocabulary)).toBeNull();
  });

  it('gives nothing for words with no close match', () => {
    expect(correctedSearch('qwxz plmkjn', vocabulary)).toBeNull();
    expect(correctedSearch('ecomerce', vocabularyOf([]))).toBeNull();
  });
});
