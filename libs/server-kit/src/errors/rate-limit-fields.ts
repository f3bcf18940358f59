import type { RateLimitState } from '@market/contracts';

/** The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-10, Structured Field lists). */
export interface RateLimitFields {
  'RateLimit-Policy': string;
  RateLimit: string;
}

// An sf-string: quoted, with backslash and double quote escaped (RFC 9651 §3.3.3).
const sfString = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** One policy item: its name, its quota, and its window or (for a concurrency quota) its unit. */
function policyItem(state: RateLimitState): string {
  let item = `${sfString(state.policy)};q=${state.quota}`;
  if (state.unit !== 'requests') item += `;qu=${sfString(state.unit)}`;
  if (state.window_seconds !== undefined) item += `;w=${state.window_seconds}`;
  return item;
}

/** The RateLimit-Policy and RateLimit values for the quotas a request was counted against (ADR 0064). */
export function rateLimitFields(states: readonly RateLimitState[]): RateLimitFields {
  return {
    'RateLimit-Policy': states.map(policyItem).join(', '),
    RateLimit: states.map((s) => `${sfString(s.policy)};r=${s.remaining};t=${s.reset_seconds}`).join(', '),
  };
}

/** Sets the RateLimit header fields on an answer (nothing when no quota counted the request). */
export function setRateLimitHeaders(response: { setHeader(name: string, value: string): unknown }, states: readonly RateLimitState[]): void {
  if (states.length === 0) return;
  for (const [name, value] of Object.entries(rateLimitFields(states))) response.setHeader(name, value);
}
