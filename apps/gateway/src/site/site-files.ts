import { CATEGORIES } from '@market/domain';

/** Most URLs one sitemap file lists (the sitemaps protocol's limit). */
export const SITEMAP_MAX_URLS = 50_000;

/** The public pages that are not listings: crawled, in the sitemap, and open to robots (ADR 0071). */
export const PUBLIC_PAGES = ['/', '/browse', '/help-center', '/about', '/contact', '/privacy-policy', '/terms-of-service', '/cookie-policy'] as const;

/** Paths robots keep out of: the API, signed-in pages and one-time links. */
export const PRIVATE_PATHS = [
  '/api/',
  '/dashboard',
  '/sell',
  '/edit-listing/',
  '/unsubscribe/',
  '/login',
  '/register',
  '/verify-email',
  '/verify/',
  '/reset-password',
  '/undo-email-change',
  '/payment-success',
  '/payment-cancel',
  '/sandbox-checkout/',
  '/sandbox-onboarding/',
] as const;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** Text safe inside an XML element (sitemap URLs carry `&` between query parameters). */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** robots.txt: public pages in, the API and signed-in pages out, and where the sitemap is. */
export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Allow: /', ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}

/** How many listing sitemap files `activeListings` fill (at least one, so the index never points nowhere). */
export function listingSitemapCount(activeListings: number): number {
  return Math.max(1, Math.ceil(activeListings / SITEMAP_MAX_URLS));
}

/** The sitemap index: the pages' file and one file per SITEMAP_MAX_URLS active listings. */
export function sitemapIndexXml(origin: string, activeListings: number): string {
  const files = [`${origin}/sitemaps/pages.xml`, ...Array.from({ length: listingSitemapCount(activeListings) }, (_, i) => `${origin}/sitemaps/listings-${i + 1}.xml`)];
  const entries = files.map((loc) => `  <sitemap><loc>${escapeXml(loc)}</loc></sitemap>`);
  return `${XML_HEAD}<sitemapindex xmlns="${NS}">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

/** A urlset of absolute URLs, each with when it last changed when known. */
export function urlsetXml(urls: { loc: string; lastmod?: string }[]): string {
  const entries = urls.map(({ loc, lastmod }) => `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</url>`);
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${entries.join('\n')}${entries.length ? '\n' : ''}</urlset>\n`;
}

/** The public pages and one browse page per category. */
export function pagesSitemapXml(origin: string): string {
  const categories = CATEGORIES.map((category) => `/browse?${new URLSearchParams({ category }).toString()}`);
  return urlsetXml([...PUBLIC_PAGES, ...categories].map((path) => ({ loc: `${origin}${path}` })));
}

/** One listings file: each active listing's page with its last change. */
export function listingsSitemapXml(origin: string, listings: { id: string; updated_at: string }[]): string {
  return urlsetXml(listings.map((listing) => ({ loc: `${origin}/listing/${listing.id}`, lastmod: listing.updated_at })));
}
