import { z } from 'zod';
import { passwordProblem, usernameProblem } from '@market/domain';
import { ClientInfoSchema } from './account.schemas';

const EMAIL_MAX = 254;

/** POST /api/auth/register (D13). */
export const RegisterRequestSchema = z
  .object({
    username: z.string().trim().superRefine((value, ctx) => {
      const problem = usernameProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    email: z.string().trim().max(EMAIL_MAX).pipe(z.email({ message: 'Enter a valid email address' })),
    password: z.string().superRefine((value, ctx) => {
      const problem = passwordProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    age_confirmed: z.literal(true, { message: 'You must confirm that you are 18 or older' }),
  })
  .strict().meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

/** POST /api/auth/login: login is a username or an email, case-insensitive. */
export const LoginRequestSchema = z
  .object({
    login: z.string().trim().min(1, 'Username or email is required').max(EMAIL_MAX),
    password: z.string().min(1, 'Password is required').max(1024),
  })
  .strict().meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** auth.login as the gateway sends it: the credentials, and where the login comes from (kept on its session). */
export const LoginMessageSchema = LoginRequestSchema.extend({ client: ClientInfoSchema.optional() });
