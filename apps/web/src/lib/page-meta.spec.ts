import { applyPageMeta, type MetaDocument } from './page-meta';

/** A document head holding the given meta tags, by selector. */
function fakeDocument(selectors: string[]): MetaDocument & { tags: Map<string, string> } {
  const tags = new Map(selectors.map((s) => [s, 'old']));
  return {
    title: 'x',
    tags,
    location: { href: 'https://market.example/help-center' },
    head: { querySelector: (selector) => (tags.has(selector) ? { setAttribute: (_name, value) => tags.set(selector, value) } : null) },
  };
}
const BASE = ['meta[name="description"]', 'meta[property="og:title"]', 'meta[property="og:description"]', 'meta[property="og:type"]'];

describe('applyPageMeta (SPEC §2)', () => {
  it('sets the title and every tag that exists, type defaulting to website', () => {
    const doc = fakeDocument(BASE);
    applyPageMeta({ title: 'Help Center', description: 'How buying works' }, doc);
    expect(doc.title).toBe('Help Center | Site Market');
    expect(Object.fromEntries(doc.tags)).toEqual({
      'meta[name="description"]': 'How buying works',
      'meta[property="og:title"]': 'Help Center | Site Market',
      'meta[property="og:description"]': 'How buying works',
      'meta[property="og:type"]': 'website',
    });
  });

  it('adds no tag the page does not have, and keeps a description it was not given', () => {
    const doc = fakeDocument(BASE);
    applyPageMeta({ title: 'A listing', image: 'https://market.example/a.png', url: 'https://market.example/listing/1', type: 'article' }, doc);
    expect([...doc.tags.keys()]).toEqual(BASE);
    expect(doc.tags.get('meta[property="og:type"]')).toBe('article');
    expect(doc.tags.get('meta[name="description"]')).toBe('old');
  });

  it('fills og:image and og:url where they exist; the url defaults to the current address', () => {
    const doc = fakeDocument([...BASE, 'meta[property="og:image"]', 'meta[property="og:url"]']);
    applyPageMeta({ title: 'Site Market', image: '/api/uploads/logo.png' }, doc);
    expect(doc.title).toBe('Site Market');
    expect(doc.tags.get('meta[property="og:image"]')).toBe('/api/uploads/logo.png');
    expect(doc.tags.get('meta[property="og:url"]')).toBe('https://market.example/help-center');
  });
});
