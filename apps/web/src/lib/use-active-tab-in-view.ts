import { useLayoutEffect, type RefObject } from 'react';

/**
 * Scrolls the tab bar sideways just enough to show its active tab (inline 'nearest'), e.g. Invoices at 375 px reached
 * from a link. Only the bar moves: scrollIntoView would also scroll the page, which a tab may have scrolled itself
 * (to a highlighted invoice). A bar that fits (desktop) does not move.
 */
function revealActiveTab(bar: HTMLElement): void {
  const tab = bar.querySelector<HTMLElement>('[aria-current="page"]');
  if (!tab) return;
  const barBox = bar.getBoundingClientRect();
  const tabBox = tab.getBoundingClientRect();
  if (tabBox.left < barBox.left) bar.scrollLeft -= barBox.left - tabBox.left;
  else if (tabBox.right > barBox.right) bar.scrollLeft += Math.min(tabBox.right - barBox.right, tabBox.left - barBox.left);
}

/**
 * Keeps the active tab (`aria-current="page"`) of the tab bar `ref` in view while `shown`, again whenever `active`
 * changes (another tab, or another set of tabs).
 */
export function useActiveTabInView(ref: RefObject<HTMLElement | null>, shown: boolean, active: string): void {
  // Before paint, so the bar never shows the wrong part first; again whenever the bar narrows or widens (a turned
  // phone, a resized window), which can push the active tab out of it.
  useLayoutEffect(() => {
    const bar = ref.current;
    if (!shown || !bar) return;
    revealActiveTab(bar);
    if (typeof ResizeObserver === 'undefined') return;
    let width = bar.clientWidth;
    let tabWidth = 0;
    const tab = bar.querySelector<HTMLElement>('[aria-current="page"]');
    // Also when the active tab itself grows (the Messages badge arrives after the first paint).
    const observer = new ResizeObserver(() => {
      const tabNow = tab?.offsetWidth ?? 0;
      if (bar.clientWidth === width && tabNow === tabWidth) return;
      width = bar.clientWidth;
      tabWidth = tabNow;
      revealActiveTab(bar);
    });
    tabWidth = tab?.offsetWidth ?? 0;
    observer.observe(bar);
    if (tab) observer.observe(tab);
    return () => observer.disconnect();
  }, [ref, shown, active]);
}
