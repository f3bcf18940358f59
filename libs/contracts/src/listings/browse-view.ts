/** The browse page's layouts (SPEC §2: grid or list, remembered). */
export type BrowseView = 'grid' | 'list';

/**
 * The cookie that mirrors the remembered browse view (kept in localStorage, SPEC §2) for the server renderer, so a
 * visitor who chose the list gets the list in the server's HTML, not a grid that turns into one (ADR 0072).
 */
export const BROWSE_VIEW_COOKIE = 'browse_view';

/** The browse view a Cookie header names; grid (the default) for anything else. */
export function browseViewOfCookies(header: string | undefined): BrowseView {
  if (!header) return 'grid';
  for (const part of header.split(';')) {
    const [name, value] = part.split('=', 2).map((item) => item.trim());
    if (name === BROWSE_VIEW_COOKIE) return value === 'list' ? 'list' : 'grid';
  }
  return 'grid';
}
