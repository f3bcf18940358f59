import { CATEGORIES } from '@market/domain';
import { escapeXml, listingSitemapCount, listingsSitemapXml, pagesSitemapXml, PRIVATE_PATHS, robotsTxt, sitemapIndexXml, SITEMAP_MAX_URLS } from './site-files';

const ORIGIN = 'https://market.example';

describe('robots.txt (ADR 0071)', () => {
  it('lets crawlers in, keeps them out of the API and signed-in pages, and names the sitemap by its absolute URL', () => {
    const lines = robotsTxt(ORIGIN).split('\n');
    expect(lines.slice(0, 2)).toEqual(['User-agent: *', 'Allow: /']);
    for (const path of ['/api/', '/dashboard', '/sell', '/edit-listing/', '/verify-email', '/reset-password']) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines.filter((line) => line.startsWith('Disallow:'))).toHaveLength(PRIVATE_PATHS.length);
    expect(lines).toContain('Sitemap: https://market.example/sitemap.xml');
    expect(lines.some((line) => /^Disallow: \/(browse|listing|about)?$/.test(line))).toBe(false);
  });
});

describe('sitemaps (ADR 0071)', () => {
  it.each([
    [0, 1],
    [1, 1],
    [SITEMAP_MAX_URLS, 1],
    [SITEMAP_MAX_URLS + 1, 2],
    [1_000_000, 20],
  ])('%i active listings fill %i listing files', (active, files) => {
    expect(listingSitemapCount(active)).toBe(files);
  });

  it('indexes the pages file and every listings file, absolute', () => {
    const xml = sitemapIndexXml(ORIGIN, SITEMAP_MAX_URLS + 1);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      `${ORIGIN}/sitemaps/pages.xml`,
      `${ORIGIN}/sitemaps/listings-1.xml`,
      `${ORIGIN}/sitemaps/listings-2.xml`,
    ]);
  });

  it('lists the public pages and one browse page per category, escaped for XML', () => {
    const locs = [...pagesSitemapXml(ORIGIN).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain(`${ORIGIN}/`);
    expect(locs).toContain(`${ORIGIN}/browse`);
    expect(locs).toContain(`${ORIGIN}/terms-of-service`);
    expect(locs).toContain(`${ORIGIN}/browse?category=E-commerce`);
    expect(locs).toContain(`${ORIGIN}/browse?category=Content+Site`);
    expect(locs.filter((loc) => loc.includes('category='))).toHaveLength(CATEGORIES.length);
    expect(locs.some((loc) => loc.includes('dashboard'))).toBe(false);
  });

  it("lists each listing's page with its last change", () => {
    const xml = listingsSitemapXml(ORIGIN, [{ id: '3f6d9a4e-1b2c-4d5e-8f90-123456789abc', updated_at: '2026-12-06T10:00:00.000Z' }]);
    expect(xml).toContain(`<url><loc>${ORIGIN}/listing/3f6d9a4e-1b2c-4d5e-8f90-123456789abc</loc><lastmod>2026-12-06T10:00:00.000Z</lastmod></url>`);
    expect(listingsSitemapXml(ORIGIN, [])).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n');
  });

  it('escapes what XML gives meaning to', () => {
    expect(escapeXml(`a&b<c>"d'`)).toBe('a&amp;b&lt;c&gt;&quot;d&apos;');
  });
});
