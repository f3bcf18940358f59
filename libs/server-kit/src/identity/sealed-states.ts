import { AccountStateSchema, type AccountState } from '@market/contracts';
import type { BusKeys, BusSigner } from '../bus/bus-keys';
import { canonicalJson } from '../bus/canonical-json';

/**
 * What Redis holds about accounts and sessions, signed by auth-service (D25, ADR 0065): Redis speeds a check up but
 * never grants anything. A value names what it is about (the account or session id is signed with it, so an admin's
 * state copied to a member's key counts for nothing) and when it stops counting; a value not signed by auth-service,
 * expired, or for another key is read as no value at all, and the reader asks auth-service.
 */

const encoder = new TextEncoder();
// No value counts longer than this, whatever it says: a replayed old value is bounded by its own time.
const LONGEST_SECONDS = 7 * 24 * 3600;

interface Sealed<T> {
  v: T;
  exp: number;
  sig: string;
}

const accountBytes = (userId: string, exp: number, state: AccountState) => encoder.encode(`market-redis-1 account\n${userId}\n${exp}\n${canonicalJson(state)}`);
const sessionBytes = (sessionId: string, exp: number, live: boolean) => encoder.encode(`market-redis-1 session\n${sessionId}\n${exp}\n${live ? 1 : 0}`);

/** An account's state as auth-service stores it in Redis for `ttlSeconds`: signed with its key, bound to the account. */
export function sealAccountState(signer: BusSigner, userId: string, state: AccountState, ttlSeconds: number, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const v: AccountState = { token_version: state.token_version, status: state.status, role: state.role, email_verified: state.email_verified };
  return JSON.stringify({ v, exp, sig: signer.sign(accountBytes(userId, exp, v)) } satisfies Sealed<AccountState>);
}

/** A login session's standing as auth-service stores it: live or ended, signed, bound to the session. */
export function sealSessionState(signer: BusSigner, sessionId: string, live: boolean, ttlSeconds: number, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  return JSON.stringify({ v: live, exp, sig: signer.sign(sessionBytes(sessionId, exp, live)) } satisfies Sealed<boolean>);
}

/** What a stored value says, `absent` when there is none or it has run out, `forged` when auth-service did not sign it. */
export type Opened<T> = { value: T } | 'absent' | 'forged';

function unseal<T>(raw: string | null, now: number, check: (sealed: Sealed<T>) => boolean, valid: (value: unknown) => value is T): Opened<T> {
  if (raw === null) return 'absent';
  let sealed: Partial<Sealed<T>>;
  try {
    sealed = JSON.parse(raw) as Partial<Sealed<T>>;
  } catch {
    return 'forged';
  }
  if (typeof sealed !== 'object' || sealed === null || typeof sealed.sig !== 'string' || !Number.isSafeInteger(sealed.exp) || !valid(sealed.v)) return 'forged';
  const seconds = Math.floor(now / 1000);
  if ((sealed.exp as number) > seconds + LONGEST_SECONDS) return 'forged';
  if (!check(sealed as Sealed<T>)) return 'forged';
  return (sealed.exp as number) <= seconds ? 'absent' : { value: sealed.v as T };
}

const isAccountState = (value: unknown): value is AccountState => AccountStateSchema.safeParse(value).success;

/** Reads an account's stored state, believed only when auth-service signed it for this account (`keys`: the bus's). */
export function openAccountState(keys: BusKeys, userId: string, raw: string | null, now = Date.now()): Opened<AccountState> {
  return unseal<AccountState>(raw, now, (sealed) => keys.verify('auth-service', accountBytes(userId, sealed.exp, sealed.v), sealed.sig), isAccountState);
}

/** Reads a session's stored standing, believed only when auth-service signed it for this session. */
export function openSessionState(keys: BusKeys, sessionId: string, raw: string | null, now = Date.now()): Opened<boolean> {
  return unseal<boolean>(raw, now, (sealed) => keys.verify('auth-service', sessionBytes(sessionId, sealed.exp, sealed.v), sealed.sig), (v): v is boolean => typeof v === 'boolean');
}
