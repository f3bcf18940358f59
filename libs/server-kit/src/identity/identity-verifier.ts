import type { Actor } from '@market/contracts';
import { unauthorized } from '../errors/app-error';
import type { AccessTokenVerifier } from './access-token';
import type { AccountStates } from './account-states';

export const SESSION_ENDED = 'Your session has ended. Please log in again.';

/**
 * Who is calling, from a token alone (ADR 0030): its signature and expiry, then the account's current state — active,
 * the token's version, its session standing — and its current role. An impersonation also needs its admin to still be
 * an active admin. Anything less is a 401; no token is an anonymous caller.
 */
export class IdentityVerifier {
  constructor(
    private readonly tokens: AccessTokenVerifier,
    private readonly states: AccountStates,
  ) {}

  async actorFrom(token: string | null | undefined): Promise<Actor | null> {
    if (!token) return null;
    const claims = this.tokens.verify(token);
    const state = await this.states.lookup(claims.sub, claims.sid);
    if (state.status !== 'active' || state.token_version !== claims.ver || !state.session_active) throw unauthorized(SESSION_ENDED);
    if (claims.act) {
      // The admin must still be an active admin with the same credentials: their password change or reset ends it.
      const admin = await this.states.lookup(claims.act.sub, null);
      const sameCredentials = claims.act.ver === undefined || admin.token_version === claims.act.ver;
      if (admin.status !== 'active' || admin.role !== 'admin' || !sameCredentials) throw unauthorized(SESSION_ENDED);
    }
    return {
      user_id: claims.sub,
      role: state.role,
      email_verified: state.email_verified,
      token_version: claims.ver,
      session_id: claims.sid,
      token,
      ...(claims.act ? { impersonator_id: claims.act.sub } : {}),
    };
  }
}
