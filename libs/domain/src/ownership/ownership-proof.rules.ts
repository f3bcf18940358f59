/**
 * Proof that someone controls a website's domain (ADR 0040): a DNS TXT record `site-market-verification=<token>` on
 * the domain, or the token in the file `/.well-known/site-market-verification.txt` served by it. Sellers prove a
 * listing's domain; buyers prove the transfer with a token of their own.
 */
export const OWNERSHIP_TXT_PREFIX = 'site-market-verification=';
export const OWNERSHIP_FILE_PATH = '/.well-known/site-market-verification.txt';
/** The longest well-known file read; a token line fits many times over, anything longer is not a proof file. */
export const OWNERSHIP_FILE_MAX_BYTES = 4096;

/** What a lookup found for one token: the token, only other tokens of ours, or nothing of ours. */
export type ProofMatch = 'match' | 'other_token' | 'none';

/** The TXT record value a domain must carry for a token. */
export function ownershipRecord(token: string): string {
  return `${OWNERSHIP_TXT_PREFIX}${token}`;
}

/**
 * The domain whose control proves ownership of a website address: its host, lower case, without a trailing dot.
 * Null when the address has no host name a DNS record could sit on (an IP address, a single label, or no URL at all).
 */
export function proofDomainOf(websiteUrl: string): string | null {
  let host: string;
  try {
    host = new URL(websiteUrl.trim()).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
  if (!host.includes('.') || host.startsWith('[') || /^[\d.]+$/.test(host)) return null;
  return /^[a-z0-9.-]+$/.test(host) ? host : null;
}

/** The token a value names when it is one of our records (`site-market-verification=...`, prefix in any case). */
function tokenOf(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.slice(0, OWNERSHIP_TXT_PREFIX.length).toLowerCase() !== OWNERSHIP_TXT_PREFIX) return null;
  return trimmed.slice(OWNERSHIP_TXT_PREFIX.length).trim();
}

/** Matches TXT records (each a list of character strings, joined as one value) against a token. */
export function txtProof(records: string[][], token: string): ProofMatch {
  const tokens = records.map((chunks) => tokenOf(chunks.join(''))).filter((t): t is string => t !== null);
  if (tokens.includes(token)) return 'match';
  return tokens.length ? 'other_token' : 'none';
}

/**
 * Matches a well-known file against a token: any line holding the token alone or as `site-market-verification=<token>`
 * (one file may carry the seller's and the buyer's tokens during a transfer).
 */
export function fileProof(body: string, token: string): ProofMatch {
  const lines = body.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const tokens = lines.map((line) => tokenOf(line) ?? line);
  if (tokens.includes(token)) return 'match';
  return lines.some((line) => tokenOf(line) !== null) ? 'other_token' : 'none';
}

/** How often one listing's (or invoice's) domain may be checked: a pause between checks and a budget per hour. */
export const PROOF_CHECK_MIN_GAP_MS = 10_000;
export const PROOF_CHECKS_PER_HOUR = 20;

/** A wait in words for a refusal's detail: seconds under two minutes, whole minutes (rounded up) beyond. */
export function waitInWords(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

type ProofCheckState = { last_checked_at: Date | null; window_started_at: Date | null; checks_in_window: number };

/** When the pause after the last check ends, and when the hour's spent budget comes back (0: not spent). */
function proofCheckEnds(state: ProofCheckState): { pauseEnd: number; budgetEnd: number } {
  const pauseEnd = state.last_checked_at ? state.last_checked_at.getTime() + PROOF_CHECK_MIN_GAP_MS : 0;
  const spent = state.window_started_at !== null && state.checks_in_window >= PROOF_CHECKS_PER_HOUR;
  return { pauseEnd, budgetEnd: spent ? state.window_started_at!.getTime() + 3_600_000 : 0 };
}

/**
 * The quota a check may not run under now, as a RateLimit header states it (ADR 0064); null when a check may run.
 * When both the pause and the hour's budget refuse, the one that lasts longer answers: waiting it out clears both.
 */
export function refusedProofCheck(
  state: ProofCheckState,
  now: Date,
): { policy: 'domain-check-pause' | 'domain-checks'; quota: number; window_seconds: number; reset_seconds: number } | null {
  const next = nextProofCheckAt(state, now);
  if (!next) return null;
  const reset_seconds = Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000));
  return next.getTime() === proofCheckEnds(state).budgetEnd
    ? { policy: 'domain-checks', quota: PROOF_CHECKS_PER_HOUR, window_seconds: 3600, reset_seconds }
    : { policy: 'domain-check-pause', quota: 1, window_seconds: PROOF_CHECK_MIN_GAP_MS / 1000, reset_seconds };
}

/** When the next check may run given the previous ones (null: now), so nobody turns us into a DNS or HTTP hammer. */
export function nextProofCheckAt(state: ProofCheckState, now: Date): Date | null {
  const { pauseEnd, budgetEnd } = proofCheckEnds(state);
  const until = Math.max(pauseEnd, budgetEnd);
  return until > now.getTime() ? new Date(until) : null;
}
