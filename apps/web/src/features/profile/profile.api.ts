import type {
  ChangePasswordRequest,
  ChangePasswordResponse,
  MessageResponse,
  UpdateProfileRequest,
  UserDto,
  UserSessionsResponse,
} from '@market/contracts';
import { api } from '../../lib/api';

/** /api/user profile, password and login sessions (resending the verification email is in api/verification.api). */
export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    // An email or password change ends other sessions (ADR 0030, ADR 0034): the list is fetched again.
    updateProfile: build.mutation<UserDto, UpdateProfileRequest>({
      query: (body) => ({ url: '/user/profile', method: 'PATCH', body }),
      invalidatesTags: ['Sessions'],
    }),
    changePassword: build.mutation<ChangePasswordResponse, ChangePasswordRequest>({
      query: (body) => ({ url: '/user/password', method: 'PATCH', body }),
      invalidatesTags: ['Sessions'],
    }),
    sessions: build.query<UserSessionsResponse, void>({
      query: () => '/user/sessions',
      providesTags: ['Sessions'],
    }),
    revokeSession: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: `/user/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    revokeAllSessions: build.mutation<MessageResponse, void>({
      query: () => ({ url: '/user/sessions/revoke-all', method: 'POST' }),
    }),
  }),
});

export const {
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useSessionsQuery,
  useRevokeSessionMutation,
  useRevokeAllSessionsMutation,
} = profileApi;
