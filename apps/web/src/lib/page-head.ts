import type { PageMeta } from './page-meta';

export const SITE_NAME = 'Site Market';
/** What a page that says nothing of itself is described as: one page's description must not linger on the next. */
export const SITE_DESCRIPTION =
  'Buy and sell websites and online businesses. Auctions and fixed prices, funds held in escrow until the transfer is verified.';
export const SITE_IMAGE = '/api/uploads/logo.png';

// Between these two comments index.html holds the site's own head tags; the server renderer puts the page's there.
export const HEAD_START = '<!--page-head-->';
export const HEAD_END = '<!--/page-head-->';
const ROOT = '<div id="root"></div>';
/** The element id of the API answers a server-rendered page carries for the browser's store (ADR 0072). */
export const STATE_ELEMENT_ID = 'market-state';

/** Every value the head of a page carries, absolute where a link preview or a crawler needs it. */
export interface HeadValues {
  title: string;
  description: string;
  canonical: string;
  image: string;
  type: string;
  robots: string;
  jsonLd: string | null;
}

/** The page's head values, given the site's origin and the path (with query) the page was asked for. */
export function headValues(meta: PageMeta, at: { origin: string; path: string }): HeadValues {
  // A path is joined to the origin as text: `//elsewhere.example/x` is a path of this site, never another site.
  const absolute = (url: string) => (!at.origin ? url : url.startsWith('/') ? new URL(`${at.origin}${url}`).href : new URL(url, at.origin).href);
  return {
    title: meta.title === SITE_NAME ? SITE_NAME : `${meta.title} | ${SITE_NAME}`,
    description: meta.description ?? SITE_DESCRIPTION,
    canonical: absolute(meta.url ?? at.path),
    image: absolute(meta.image ?? SITE_IMAGE),
    type: meta.type ?? 'website',
    robots: meta.noindex ? 'noindex' : 'index, follow',
    jsonLd: meta.jsonLd ? scriptJson(meta.jsonLd(at.origin)) : null,
  };
}

/** Text safe inside an HTML attribute or element. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a <script> element: no `</script>`, no `<!--`, and the line separators JavaScript once refused. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One head tag a page sets: its element and name, and the value it carries (a head value, or a fixed text). */
interface HeadTag {
  element: 'meta-name' | 'meta-property' | 'link-rel';
  name: string;
  value: keyof Omit<HeadValues, 'jsonLd'> | { fixed: string };
}

// The tags between the page-head markers, in order: the server writes them (headHtml) and the browser updates them in
// place on navigation (applyPageMeta), by the selector each implies, from this one list.
const HEAD_TAGS: HeadTag[] = [
  { element: 'meta-name', name: 'description', value: 'description' },
  { element: 'meta-name', name: 'robots', value: 'robots' },
  { element: 'link-rel', name: 'canonical', value: 'canonical' },
  { element: 'meta-property', name: 'og:site_name', value: { fixed: SITE_NAME } },
  { element: 'meta-property', name: 'og:title', value: 'title' },
  { element: 'meta-property', name: 'og:description', value: 'description' },
  { element: 'meta-property', name: 'og:type', value: 'type' },
  { element: 'meta-property', name: 'og:url', value: 'canonical' },
  { element: 'meta-property', name: 'og:image', value: 'image' },
  { element: 'meta-name', name: 'twitter:card', value: { fixed: 'summary_large_image' } },
  { element: 'meta-name', name: 'twitter:title', value: 'title' },
  { element: 'meta-name', name: 'twitter:description', value: 'description' },
  { element: 'meta-name', name: 'twitter:image', value: 'image' },
];

const tagValue = (tag: HeadTag, values: HeadValues) => (typeof tag.value === 'string' ? values[tag.value] : tag.value.fixed);

/** Each head tag the browser updates: its selector, the attribute holding its value, and that value for `values`. */
export function headTagUpdates(values: HeadValues): Array<{ selector: string; attribute: 'content' | 'href'; value: string }> {
  return HEAD_TAGS.filter((tag) => typeof tag.value === 'string').map((tag) => ({
    selector: tag.element === 'link-rel' ? `link[rel="${tag.name}"]` : `meta[${tag.element === 'meta-name' ? 'name' : 'property'}="${tag.name}"]`,
    attribute: tag.element === 'link-rel' ? 'href' : 'content',
    value: tagValue(tag, values),
  }));
}

/** The head tags of a page as HTML (the same tags, by the same selectors, that applyPageMeta updates in the browser). */
export function headHtml(values: HeadValues): string {
  const tags = HEAD_TAGS.map((tag) => {
    const value = escapeHtml(tagValue(tag, values));
    if (tag.element === 'link-rel') return `<link rel="${tag.name}" href="${value}" />`;
    return `<meta ${tag.element === 'meta-name' ? 'name' : 'property'}="${tag.name}" content="${value}" />`;
  });
  return [
    `<title>${escapeHtml(values.title)}</title>`,
    ...tags,
    ...(values.jsonLd ? [`<script type="application/ld+json">${values.jsonLd}</script>`] : []),
  ].join('\n    ');
}

/**
 * The built index.html with the page's head tags, its rendered HTML in the root element and the API answers for the
 * browser's store; null when the template lacks the markers (a build this renderer does not know).
 */
export function pageDocument(template: string, page: { head: string; body: string; state: unknown }): string | null {
  const start = template.indexOf(HEAD_START);
  const end = template.indexOf(HEAD_END);
  const root = template.indexOf(ROOT);
  if (start < 0 || end < start || root < end) return null;
  // A data block, not a script: it never runs, so the CSP needs no inline script allowance.
  const state = `<script type="application/json" id="${STATE_ELEMENT_ID}">${scriptJson(page.state)}</script>`;
  return (
    template.slice(0, start + HEAD_START.length) +
    `\n    ${page.head}\n    ` +
    template.slice(end, root) +
    `<div id="root">${page.body}</div>${state}` +
    template.slice(root + ROOT.length)
  );
}
