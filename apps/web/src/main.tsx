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
const early = serverRendered ? holdEarlyEvents(document) : null;
void (serverRendered ? afterPaint().then(() => preloadModules(document, pageModulesOf(document.getElementById(PAGE_MODULES_ELEMENT_ID)?.textContent, location.origin))) : Promise.resolve())
  .then(() => import('./app/start'))
  .then(({ start }) => start(early))
  .catch((error: unknown) => {
    // The app did not start (a module that did not load, after a deploy or on a bad network): the server's HTML stays
    // as it is, its buttons and forms behave as plain HTML again, and the visitor's links are shown.
    early?.release();
    for (const pending of document.querySelectorAll('.session-pending')) pending.classList.remove('session-pending');
    document.documentElement.dataset.app = 'failed';
    console.error('The app did not start', error);
  });
