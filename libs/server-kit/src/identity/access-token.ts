import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { unauthorized } from '../errors/app-error';
import { keyId, type PublicKeyEntry } from './jwt-keys';

/** What an access token says (ADR 0030): who, which session, which account version, and the admin behind an impersonation. */
export interface AccessClaims {
  sub: string;
  sid: string;
  ver: number;
  /** The admin behind an impersonation and their token version when it began (their password change ends it). */
  act?: { sub: string; ver?: number };
  exp: number;
}

export const NOT_AUTHENTICATED = 'Not authenticated';
const CACHE_LIMIT = 10_000;

/** Signs access tokens with the one private key (auth-service only; ES256, the key's thumbprint as kid). */
export class AccessTokenSigner {
  private readonly kid: string;

  constructor(
    private readonly privateKey: KeyObject,
    publicKey: KeyObject,
  ) {
    this.kid = keyId(publicKey);
  }

  /** The key id tokens are signed under (it must be among every process's JWT_PUBLIC_KEYS). */
  get keyId(): string {
    return this.kid;
  }

  sign(claims: Omit<AccessClaims, 'exp'>, ttlSeconds: number): string {
    const { sub, ...rest } = claims;
    return jwt.sign(rest, this.privateKey, { algorithm: 'ES256', keyid: this.kid, subject: sub, expiresIn: ttlSeconds });
  }
}

/**
 * Verifies access tokens against the public keys (ES256 only, the key named by kid, not expired). Verified claims are
 * remembered per token until they expire (bounded), so a busy client costs one signature check, not one per request.
 */
export class AccessTokenVerifier {
  private readonly keys: Map<string, KeyObject>;
  private readonly verified = new Map<string, AccessClaims>();

  constructor(keys: PublicKeyEntry[]) {
    this.keys = new Map(keys.map((entry) => [entry.kid, entry.key]));
  }

  /** The token's claims, or a 401 for anything forged, expired, of another algorithm or key, or malformed. */
  verify(token: string): AccessClaims {
    const known = this.verified.get(token);
    if (known && known.exp * 1000 > Date.now()) return known;
    if (known) this.verified.delete(token);
    let claims: AccessClaims;
    try {
      // Decoding can throw on a malformed header or payload: every failure here is the caller's, a 401.
      const header = (jwt.decode(token, { complete: true }) as { header?: { kid?: unknown; alg?: unknown } } | null)?.header;
      const key = typeof header?.kid === 'string' ? this.keys.get(header.kid) : undefined;
      if (!key || header?.alg !== 'ES256') throw new Error('unknown key or algorithm');
      claims = jwt.verify(token, key, { algorithms: ['ES256'] }) as AccessClaims;
    } catch {
      throw unauthorized(NOT_AUTHENTICATED);
    }
    const valid =
      typeof claims.sub === 'string' &&
      typeof claims.sid === 'string' &&
      Number.isInteger(claims.ver) &&
      typeof claims.exp === 'number' &&
      (claims.act === undefined || typeof claims.act?.sub === 'string');
    if (!valid) throw unauthorized(NOT_AUTHENTICATED);
    if (this.verified.size >= CACHE_LIMIT) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, claims);
    return claims;
  }
}
