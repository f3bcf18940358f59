import { applyPageMeta, SITE_DESCRIPTION, type MetaDocument } from './page-meta';

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

  it("adds no tag the page does not have, and a page without a description gets the site's, not the last page's", () => {
    const doc = fakeDocument(BASE);
    applyPageMeta({ title: 'A listing', description: 'A blog about birds', type: 'article' }, doc);
    applyPageMeta({ title: 'Dashboard' }, doc);
    expect([...doc.tags.keys()]).toEqual(BASE);
    expect(doc.tags.get('meta[property="og:type"]')).toBe('website');
    expect(doc.tags.get('meta[name="description"]')).toBe(SITE_DESCRIPTION);
    expect(doc.tags.get('meta[property="og:description"]')).toBe(SITE_DESCRIPTION);
  });

  it('fills og:image and og:url with absolute addresses; the url defaults to the current one, the image to the logo', () => {
    const doc = fakeDocument([...BASE, 'meta[property="og:image"]', 'meta[property="og:url"]']);
    applyPageMeta({ title: 'A listing', image: '/api/uploads/shot.png', url: '/listing/1' }, doc);
    expect(doc.tags.get('meta[property="og:image"]')).toBe('https://market.example/api/uploads/shot.png');
    expect(doc.tags.get('meta[property="og:url"]')).toBe('https://market.example/listing/1');
    applyPageMeta({ title: 'Site Market' }, doc);
    expect(doc.title).toBe('Site Market');
    expect(doc.tags.get('meta[property="og:image"]')).toBe('https://market.example/api/uploads/logo.png');
    expect(doc.tags.get('meta[property="og:url"]')).toBe('https://market.example/help-center');
  });
});

describe('applyPageMeta: canonical link and structured data (ADR 0072)', () => {
  it("updates the server's canonical link and twitter tags, and drops a listing's JSON-LD on a page without one", () => {
    const removed: string[] = [];
    const tags = new Map([
      ['link[rel="canonical"]', 'old'],
      ['meta[name="twitter:title"]', 'old'],
    ]);
    const script = { textContent: '{"old":true}', setAttribute: () => undefined, remove: () => removed.push('json-ld') };
    const doc: MetaDocument = {
      title: 'x',
      location: { href: 'https://market.example/listing/1?ref=mail', origin: 'https://market.example' },
      head: {
        querySelector: (selector) =>
          selector === 'script[type="application/ld+json"]' ? script : tags.has(selector) ? { setAttribute: (_name, value) => tags.set(selector, value) } : null,
      },
    };
    applyPageMeta({ title: 'A listing', url: '/listing/1', jsonLd: (origin) => ({ url: `${origin}/listing/1` }) }, doc);
    expect(tags.get('link[rel="canonical"]')).toBe('https://market.example/listing/1');
    expect(tags.get('meta[name="twitter:title"]')).toBe('A listing | Site Market');
    expect(JSON.parse(script.textContent)).toEqual({ url: 'https://market.example/listing/1' });
    applyPageMeta({ title: 'Browse' }, doc);
    expect(removed).toEqual(['json-ld']);
    expect(tags.get('link[rel="canonical"]')).toBe('https://market.example/listing/1?ref=mail');
  });
});
