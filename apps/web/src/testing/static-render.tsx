import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createStore, type AppStore } from '../app/store';

/** Renders in Node, inside the store and a router at `url`: what a state puts on the page, without a browser DOM. */
export function renderStatic(element: ReactElement, store: AppStore = createStore(), url = '/'): string {
  return renderToStaticMarkup(
    <Provider store={store}>
      <MemoryRouter initialEntries={[url]}>{element}</MemoryRouter>
    </Provider>,
  );
}

/** The visible text of rendered markup, tags dropped and entities decoded. */
export function visibleText(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
