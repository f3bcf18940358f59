import { holdEarlyEvents } from './lib/early-events';
import { PAGE_MODULES_ELEMENT_ID, pageModulesOf, preloadModules } from './lib/page-modules';
import './styles/global.css';

/** Resolves once the browser has painted the page (a frame, then a task), or soon in a tab that paints no frames. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    // A hidden tab runs no animation frames: the app must start there too.
    setTimeout(resolve, 100);
  });
}

// A server-rendered page is painted before the app's modules (React, the router, the store, the page) are fetched and
// evaluated: on a slow phone they would share the network with the page's images and their evaluation is the longest
// task of a load, and the page is readable without them (ADR 0072, amended). The page names its modules so they load
// at once, together. The client shell has nothing to paint and starts at once, its modules preloaded by index.html.
const serverRendered = Boolean(document.getElementById('root')?.firstChild);
const handOver = serverRendered ? holdEarlyEvents(document) : () => undefined;
void (serverRendered ? afterPaint().then(() => preloadModules(document, pageModulesOf(document.getElementById(PAGE_MODULES_ELEMENT_ID)?.textContent))) : Promise.resolve())
  .then(() => import('./app/start'))
  .then(({ start }) => start())
  .then(handOver);
