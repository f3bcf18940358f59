import type { UserDto } from '@market/contracts';
import { api } from '../lib/api';

/** GET /api/auth/me: the signed-in user, used at session start. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    me: build.query<UserDto, void>({
      query: () => '/auth/me',
      providesTags: ['Me'],
    }),
    stopImpersonation: build.mutation<{ message: string }, void>({
      query: () => ({ url: '/admin/stop-impersonation', method: 'POST' }),
    }),
  }),
});

export const { useStopImpersonationMutation } = sessionApi;
