import { createContext, useContext, useEffect } from 'react';
import { headTagUpdates, headValues } from './page-head';

/** What a page says about itself to the browser tab, search engines and link previews (SPEC §2, ADR 0072). */
export interface PageMeta {
  title: string;
  description?: string;
  /** A path or URL; made absolute for link previews. */
  image?: string;
  /** The page's canonical path; the address it was asked for by default. */
  url?: string;
  type?: string;
  /** Structured data (schema.org JSON-LD), given the site's origin to make its addresses absolute. */
  jsonLd?: (origin: string) => object;
  /** The HTTP status the server answers this page with (404 for a page or listing that is not there). */
  status?: number;
  /** Keeps the page out of search results (a missing page, a signed-in page). */
  noindex?: boolean;
}

export { SITE_DESCRIPTION, SITE_IMAGE, SITE_NAME } from './page-head';

/** Where the server renderer collects the page's metadata while it renders (ADR 0072); absent in the browser. */
export interface PageMetaCollector {
  meta: PageMeta | null;
}
export const PageMetaCollectorContext = createContext<PageMetaCollector | null>(null);

/** The part of a document the helper touches (a plain object stands in for it in unit tests). */
export interface MetaDocument {
  title: string;
  head: {
    querySelector(selector: string): { setAttribute(name: string, value: string): void; textContent?: string | null; remove?(): void } | null;
  };
  location?: { href: string; origin?: string } | null;
}

/**
 * Sets the title, description, canonical link and social tags that exist in the document (the server wrote them,
 * ADR 0072). What a page leaves out falls back to the site's own (description, image, type 'website', the current
 * address), and link previews get absolute URLs. A listing's structured data follows the page; another page drops it.
 */
export function applyPageMeta(meta: PageMeta, doc: MetaDocument = document): void {
  const href = doc.location?.href;
  const origin = doc.location ? (doc.location.origin ?? new URL(doc.location.href).origin) : '';
  const path = href ? href.slice(origin.length) || '/' : '/';
  const values = headValues(meta, { origin, path });
  doc.title = values.title;
  // Only tags the page already has are changed: the helper never adds tags (SPEC §2).
  for (const { selector, attribute, value } of headTagUpdates(values)) doc.head.querySelector(selector)?.setAttribute(attribute, value);
  const script = doc.head.querySelector('script[type="application/ld+json"]');
  if (script && values.jsonLd) script.textContent = values.jsonLd;
  else if (script) script.remove?.();
}

/**
 * A page's metadata: on the server it is collected for the HTML head (the last page component to say wins, as in the
 * browser); in the browser it is applied while the page is shown.
 */
export function usePageMeta(meta: PageMeta): void {
  const collector = useContext(PageMetaCollectorContext);
  if (collector) collector.meta = meta;
  const { title, description, image, url, type, jsonLd, noindex } = meta;
  useEffect(() => {
    applyPageMeta({ title, description, image, url, type, jsonLd, noindex });
  }, [title, description, image, url, type, jsonLd, noindex]);
}
