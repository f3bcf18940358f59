import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserDto } from '@market/contracts';
import { readToken, writeToken } from '../lib/storage-keys';
import { api } from '../lib/api';
import { sessionEnded } from '../lib/session-events';
import { clearImpersonation } from '../lib/impersonation';
import { sessionApi } from './session.api';
import type { SessionState } from '../lib/store-hooks';

export type { SessionState } from '../lib/store-hooks';

const initialState: SessionState = { status: 'loading', user: null };

/** Session start (SPEC §4): with a stored token, fetch the user; on failure drop the token silently. */
export const startSession = createAsyncThunk('session/start', async (_: void, { dispatch }) => {
  if (!readToken()) return null;
  const result = dispatch(sessionApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
  try {
    return await result.unwrap();
  } catch {
    writeToken(null);
    return null;
  } finally {
    result.unsubscribe();
  }
});

const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    loggedIn(state, action: PayloadAction<{ token: string; user: UserDto }>) {
      // A fresh login ends any impersonation this browser was in.
      clearImpersonation();
      writeToken(action.payload.token);
      state.user = action.payload.user;
      state.status = 'ready';
    },
    userUpdated(state, action: PayloadAction<UserDto>) {
      state.user = action.payload;
    },
    loggedOut(state) {
      writeToken(null);
      clearImpersonation();
      state.user = null;
      state.status = 'ready';
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(startSession.fulfilled, (state, action) => {
        state.user = action.payload;
        state.status = 'ready';
      })
      .addCase(sessionEnded, (state) => {
        state.user = null;
        state.status = 'ready';
      });
  },
});

export const { loggedIn, userUpdated } = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;

/** Ends the session: forgets the token and every cached API answer. */
export const logout = () => (dispatch: (action: unknown) => unknown) => {
  dispatch(sessionSlice.actions.loggedOut());
  dispatch(api.util.resetApiState());
};
