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

/** The part of a document the helper touches (a plain object stands in for it in unit tests). */
export interface MetaDocument {
  title: string;
  head: { querySelector(selector: string): { setAttribute(name: string, value: string): void } | null };
  location?: { href: string } | null;
}

/** Sets the title, description and social tags that exist in the document; type defaults to 'website'. */
export function applyPageMeta(meta: PageMeta, doc: MetaDocument = document): void {
  const title = meta.title === SITE_NAME ? SITE_NAME : `${meta.title} | ${SITE_NAME}`;
  doc.title = title;
  // Only tags the page already has are changed: the helper never adds tags (SPEC §2).
  const set = (selector: string, value: string | undefined) => {
    if (value !== undefined) doc.head.querySelector(selector)?.setAttribute('content', value);
  };
  set('meta[name="description"]', meta.description);
  set('meta[property="og:title"]', title);
  set('meta[property="og:description"]', meta.description);
  set('meta[property="og:image"]', meta.image);
  set('meta[property="og:url"]', meta.url ?? doc.location?.href);
  set('meta[property="og:type"]', meta.type ?? 'website');
}

/** Applies a page's metadata while it is shown. */
export function usePageMeta(meta: PageMeta): void {
  const { title, description, image, url, type } = meta;
  useEffect(() => {
    applyPageMeta({ title, description, image, url, type });
  }, [title, description, image, url, type]);
}
