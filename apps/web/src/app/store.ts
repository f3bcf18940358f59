import { configureStore } from '@reduxjs/toolkit';
import { api } from '../lib/api';
import { sessionReducer } from '../session/session.slice';
import type { RootState } from '../lib/store-hooks';

const reducer = { session: sessionReducer, [api.reducerPath]: api.reducer };

/** Creates the Redux store (one per app; tests make their own; the server renderer starts one from answers, ADR 0072). */
export function createStore(preloadedState?: { [api.reducerPath]: ReturnType<typeof api.reducer> }) {
  return configureStore({
    reducer,
    ...(preloadedState ? { preloadedState } : {}),
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;
// The state lib/store-hooks.ts types the hooks with is this store's: a reducer added here must be added there.
const sameState: (state: ReturnType<AppStore['getState']>) => RootState = (state) => state;
void sameState;
