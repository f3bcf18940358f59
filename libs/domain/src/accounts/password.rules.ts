import { COMMON_PASSWORDS } from './common-passwords';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Returns why a new password is unacceptable (D13), or null when it is fine. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters long`;
  if (password.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters long`;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    return 'This password is too common. Please choose a less predictable one';
  }
  return null;
}
