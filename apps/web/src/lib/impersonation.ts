import type { UserDto } from '@market/contracts';
import { STORAGE_KEYS, readToken, writeToken } from './storage-keys';

export interface ImpersonationState {
  targetUser: Pick<UserDto, 'id' | 'username' | 'name'>;
  originalAdmin: Pick<UserDto, 'id' | 'username' | 'name'>;
}

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** Who is being viewed and by which admin, when an impersonation session is active (SPEC §3 keys). */
export function readImpersonation(): ImpersonationState | null {
  if (localStorage.getItem(STORAGE_KEYS.impersonating) !== 'true') return null;
  const targetUser = readJson<ImpersonationState['targetUser']>(STORAGE_KEYS.targetUser);
  const originalAdmin = readJson<ImpersonationState['originalAdmin']>(STORAGE_KEYS.originalAdmin);
  return targetUser && originalAdmin ? { targetUser, originalAdmin } : null;
}

/** Keeps the admin's token aside and switches the session to the impersonation token. */
export function beginImpersonation(token: string, targetUser: UserDto, originalAdmin: UserDto): void {
  const adminToken = readToken();
  if (adminToken) localStorage.setItem(STORAGE_KEYS.originalAdminToken, adminToken);
  localStorage.setItem(STORAGE_KEYS.impersonating, 'true');
  localStorage.setItem(STORAGE_KEYS.targetUser, JSON.stringify(targetUser));
  localStorage.setItem(STORAGE_KEYS.originalAdmin, JSON.stringify(originalAdmin));
  writeToken(token);
}

/** The admin's own token kept aside while impersonating, or null. */
export function readOriginalAdminToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.originalAdminToken);
}

/** Forgets every impersonation key (logout does too). */
export function clearImpersonation(): void {
  for (const key of [STORAGE_KEYS.impersonating, STORAGE_KEYS.targetUser, STORAGE_KEYS.originalAdmin, STORAGE_KEYS.originalAdminToken]) {
    localStorage.removeItem(key);
  }
}

/** Restores the admin's token; returns where to go next (SPEC §4). */
export function endImpersonation(): '/dashboard' | '/login?returning_admin=true' {
  const adminToken = localStorage.getItem(STORAGE_KEYS.originalAdminToken);
  clearImpersonation();
  writeToken(adminToken);
  return adminToken ? '/dashboard' : '/login?returning_admin=true';
}
