import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { createStore } from './app/store';
import { router } from './app/router';
import { startSession } from './session/session.slice';
import { followSessionAcrossTabs } from './session/session-sync';
import './styles/global.css';

const store = createStore();
void store.dispatch(startSession());
followSessionAcrossTabs(store.dispatch);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
