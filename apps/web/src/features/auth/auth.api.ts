import type {
  ForgotPasswordRequest,
  LoginRequest,
  LoginResponse,
  MessageResponse,
  RegisterRequest,
  RegisterResponse,
  ResetPasswordRequest,
  UndoEmailChangeRequest,
} from '@market/contracts';
import { api } from '../../lib/api';

/** /api/auth endpoints and their hooks. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    register: build.mutation<RegisterResponse, RegisterRequest>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
    }),
  }),
});

export const { useLoginMutation, useRegisterMutation } = authApi;

/** Email verification, password reset and undoing an email change. */
export const accountRecoveryApi = api.injectEndpoints({
  endpoints: (build) => ({
    verifyEmail: build.mutation<MessageResponse, string>({
      query: (token) => ({ url: `/auth/verify-email?token=${encodeURIComponent(token)}`, method: 'POST' }),
    }),
    forgotPassword: build.mutation<MessageResponse, ForgotPasswordRequest>({
      query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<MessageResponse, ResetPasswordRequest>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
    undoEmailChange: build.mutation<MessageResponse, UndoEmailChangeRequest>({
      query: (body) => ({ url: '/auth/undo-email-change', method: 'POST', body }),
    }),
  }),
});

export const { useVerifyEmailMutation, useForgotPasswordMutation, useResetPasswordMutation, useUndoEmailChangeMutation } = accountRecoveryApi;
