import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { UserDto } from '@market/contracts';
import { useDispatch, useSelector } from 'react-redux';
import type { api } from './api';

/** Who is signed in, as the session slice keeps it. */
export interface SessionState {
  status: 'loading' | 'ready';
  user: UserDto | null;
}

/** The store's state: the session and the API cache (app/store.ts builds the store from these two reducers). */
export interface RootState {
  session: SessionState;
  [api.reducerPath]: ReturnType<typeof api.reducer>;
}
export type AppDispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

/** The store's dispatch, typed: every layer reads the store through these, never through app/. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
/** A selector of the store's state, typed. */
export const useAppSelector = useSelector.withTypes<RootState>();
