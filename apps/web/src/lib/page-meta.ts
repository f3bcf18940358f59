import { useEffect } from 'react';

/** What a page says about itself to the browser tab, search engines and link previews (SPEC §2). */
export interface PageMeta {
  title: string;
  description?: string;
  image?: string;
  url?: string;
  type?: string;
}

export const SITE_NAME = 'Site Market';
/** What a page that says nothing of itself is described as: one page's description must not linger on the next. */
export const SITE_DESCRIPTION =
  'Buy and sell websites and online businesses. Auctions and fixed prices, funds held in escrow until the transfer is verified.';
export const SITE_IMAGE = '/api/uploads/logo.png';

/** The part of a document the helper touches (a plain object stands in for it in unit tests). */
export interface MetaDocument {
  title: string;
  head: { querySelector(selector: string): { setAttribute(name: string, value: string): void } | null };
  location?: { href: string } | null;
}

/**
 * Sets the title, description and social tags that exist in the document. What a page leaves out falls back to the
 * site's own (description, image, type 'website', the current address), and link previews get absolute URLs.
 */
export function applyPageMeta(meta: PageMeta, doc: MetaDocument = document): void {
  const title = meta.title === SITE_NAME ? SITE_NAME : `${meta.title} | ${SITE_NAME}`;
  doc.title = title;
  const absolute = (url: string) => (doc.location ? new URL(url, doc.location.href).href : url);
  // Only tags the page already has are changed: the helper never adds tags (SPEC §2).
  const set = (selector: string, value: string | undefined) => {
    if (value !== undefined) doc.head.querySelector(selector)?.setAttribute('content', value);
  };
  const description = meta.description ?? SITE_DESCRIPTION;
  set('meta[name="description"]', description);
  set('meta[property="og:title"]', title);
  set('meta[property="og:description"]', description);
  set('meta[property="og:image"]', absolute(meta.image ?? SITE_IMAGE));
  set('meta[property="og:url"]', meta.url ? absolute(meta.url) : doc.location?.href);
  set('meta[property="og:type"]', meta.type ?? 'website');
}

/** Applies a page's metadata while it is shown. */
export function usePageMeta(meta: PageMeta): void {
  const { title, description, image, url, type } = meta;
  useEffect(() => {
    applyPageMeta({ title, description, image, url, type });
  }, [title, description, image, url, type]);
}
