/**
 * The scripts a server-rendered page needs, named by the server in a data block rather than preloaded by the HTML: the
 * entry asks for them once the page is painted, so on a slow network they do not share its first bytes with the
 * page's own images (ADR 0072, amended). This module imports nothing, so the entry stays small.
 */
export const PAGE_MODULES_ELEMENT_ID = 'page-modules';

/** The data block naming `files` (paths on this site), as the server writes it into a page's head. */
export function pageModulesElement(files: string[]): string {
  // A data block never runs; '<' is escaped so no path could close the element.
  return `<script type="application/json" id="${PAGE_MODULES_ELEMENT_ID}">${JSON.stringify(files).replace(/</g, '\\u003c')}</script>`;
}

/** True for a built script of this site: read as the browser reads a URL, on `origin`, under /assets/, a .js file. */
function isOwnScript(file: unknown, origin: string): file is string {
  if (typeof file !== 'string') return false;
  try {
    const url = new URL(file, origin);
    return url.origin === origin && url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js');
  } catch {
    return false;
  }
}

/** The scripts a page's data block (its text) names, only this site's built ones; none when missing or unreadable. */
export function pageModulesOf(text: string | null | undefined, origin: string): string[] {
  try {
    const files: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(files) ? files.filter((file): file is string => isOwnScript(file, origin)) : [];
  } catch {
    return [];
  }
}

/** Starts loading each named module (modulepreload: fetched and parsed, run only when imported). */
export function preloadModules(doc: Pick<Document, 'createElement' | 'head'>, files: string[]): void {
  for (const file of files) {
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = file;
    doc.head.append(link);
  }
}
