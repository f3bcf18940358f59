/** Browser storage keys the product uses (SPEC §3). */
export const STORAGE_KEYS = {
  token: 'token',
  impersonating: 'impersonating',
  originalAdmin: 'original_admin',
  targetUser: 'target_user',
  originalAdminToken: 'original_admin_token',
  browseViewMode: 'browseViewMode',
  preLoginListingData: 'preLoginListingData',
} as const;

/** The stored session token, or null. */
export function readToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

/** Saves or removes the session token. */
export function writeToken(token: string | null): void {
  if (token) localStorage.setItem(STORAGE_KEYS.token, token);
  else localStorage.removeItem(STORAGE_KEYS.token);
}

/**
 * The one rule for a refused token: a 401 to a request that carried `sentToken`, still the stored one (no new login
 * meanwhile), ends the session. Forgets the token and returns true then.
 */
export function forgetRefusedToken(status: unknown, sentToken: string | null): boolean {
  if (status !== 401 || !sentToken || readToken() !== sentToken) return false;
  writeToken(null);
  return true;
}

/** True when the sell wizard saved listing data before the visitor logged in. */
export function hasPreLoginListing(): boolean {
  try {
    return sessionStorage.getItem(STORAGE_KEYS.preLoginListingData) !== null;
  } catch {
    return false;
  }
}
