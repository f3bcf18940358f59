import type { MessageResponse, UserDto } from '@market/contracts';
import { api } from '../lib/api';

/** GET /api/auth/me: the signed-in user, used at session start; POST /api/auth/logout ends a session on the server. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    me: build.query<UserDto, void>({
      query: () => '/auth/me',
      providesTags: ['Me'],
    }),
    stopImpersonation: build.mutation<{ message: string }, void>({
      query: () => ({ url: '/admin/stop-impersonation', method: 'POST' }),
    }),
    /** Ends the stored token's session (or the one of `token`) at once on every server (ADR 0030). */
    endSession: build.mutation<MessageResponse, string | void>({
      query: (token) => ({ url: '/auth/logout', method: 'POST', ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}) }),
    }),
  }),
});

export const { useStopImpersonationMutation, useEndSessionMutation } = sessionApi;
