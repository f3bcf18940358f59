export type Role = 'admin' | 'regular';

/** Where the web app goes after login (SPEC §2): /sell when pre-login listing data waits, /dashboard for admins, else /. */
export function postLoginPath(role: Role, hasPreLoginListing: boolean): string {
  if (hasPreLoginListing) return '/sell';
  return role === 'admin' ? '/dashboard' : '/';
}
