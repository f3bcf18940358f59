import { configureStore } from '@reduxjs/toolkit';
import { api } from '../lib/api';
import { sessionReducer } from '../session/session.slice';
import type { RootState } from '../lib/store-hooks';

/** Creates the Redux store (one per app; tests make their own). */
export function createStore() {
  return configureStore({
    reducer: { session: sessionReducer, [api.reducerPath]: api.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;
// The state lib/store-hooks.ts types the hooks with is this store's: a reducer added here must be added there.
const sameState: (state: ReturnType<AppStore['getState']>) => RootState = (state) => state;
void sameState;
