import type { MessageResponse } from '@market/contracts';
import { api } from '../lib/api';

/** POST /api/auth/resend-verification: a new verification link to the signed-in member's address (ADR 0037). */
export const verificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    resendVerification: build.mutation<MessageResponse, void>({
      query: () => ({ url: '/auth/resend-verification', method: 'POST' }),
    }),
  }),
});

export const { useResendVerificationMutation } = verificationApi;

/** Sends the verification link again, answering the server's message (or throwing its error): VerifyEmailNotice's button. */
export function useResendVerification(): { resend: () => Promise<string>; sending: boolean } {
  const [resend, { isLoading }] = useResendVerificationMutation();
  return { resend: () => resend().unwrap().then((answer) => answer.message), sending: isLoading };
}
