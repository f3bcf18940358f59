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

/** The head tags of a page as HTML (the same tags, by the same selectors, that applyPageMeta updates in the browser). */
export function headHtml(values: HeadValues): string {
  const tag = (attribute: 'name' | 'property', key: string, value: string) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  return [
    `<title>${escapeHtml(values.title)}</title>`,
    tag('name', 'description', values.description),
    tag('name', 'robots', values.robots),
    `<link rel="canonical" href="${escapeHtml(values.canonical)}" />`,
    tag('property', 'og:site_name', SITE_NAME),
    tag('property', 'og:title', values.title),
    tag('property', 'og:description', values.description),
    tag('property', 'og:type', values.type),
    tag('property', 'og:url', values.canonical),
    tag('property', 'og:image', values.image),
    tag('name', 'twitter:card', 'summary_large_image'),
    tag('name', 'twitter:title', values.title),
    tag('name', 'twitter:description', values.description),
    tag('name', 'twitter:image', values.image),
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
