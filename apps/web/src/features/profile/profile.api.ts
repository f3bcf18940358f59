import type { ChangePasswordRequest, ChangePasswordResponse, MessageResponse, UpdateProfileRequest, UserDto } from '@market/contracts';
import { api } from '../../lib/api';

/** /api/user profile and password, and resending the verification email. */
export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateProfile: build.mutation<UserDto, UpdateProfileRequest>({
      query: (body) => ({ url: '/user/profile', method: 'PATCH', body }),
    }),
    changePassword: build.mutation<ChangePasswordResponse, ChangePasswordRequest>({
      query: (body) => ({ url: '/user/password', method: 'PATCH', body }),
    }),
    resendVerification: build.mutation<MessageResponse, void>({
      query: () => ({ url: '/auth/resend-verification', method: 'POST' }),
    }),
  }),
});

export const { useUpdateProfileMutation, useChangePasswordMutation, useResendVerificationMutation } = profileApi;
