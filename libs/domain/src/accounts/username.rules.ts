export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Returns why a username is unacceptable (D13), or null when it is fine. */
export function usernameProblem(username: string): string | null {
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) {
    return `Username must be ${USERNAME_MIN} to ${USERNAME_MAX} characters long`;
  }
  if (!USERNAME_PATTERN.test(username)) {
    return 'Username may contain only letters, digits, _ and -';
  }
  return null;
}

/** The form used to compare usernames and emails: login is case-insensitive (D13). */
export function canonicalIdentifier(value: string): string {
  return value.trim().toLowerCase();
}
