import { createPublicKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AccessTokenSigner, parsePrivateKey } from '@market/server-kit';
import { AUTH_CONFIG, checkSigningKey, type AuthConfig } from '../auth.config';
import type { UserEntity } from '../users/user.entity';

export const IMPERSONATION_TTL_SECONDS = 3600;

/** Signs access tokens (ES256, ADR 0030) naming the user, their login session and token version (D14). */
@Injectable()
export class TokenIssuer {
  private readonly signer: AccessTokenSigner;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    checkSigningKey(config);
    const privateKey = parsePrivateKey(config.JWT_PRIVATE_KEY);
    this.signer = new AccessTokenSigner(privateKey, createPublicKey(privateKey));
  }

  /** How long a login token lives (its session row expires with it). */
  get ttlSeconds(): number {
    return this.config.JWT_TTL_SECONDS;
  }

  issue(user: UserEntity, sessionId: string): string {
    return this.signer.sign({ sub: user.id, sid: sessionId, ver: user.tokenVersion }, this.config.JWT_TTL_SECONDS);
  }

  /**
   * A one-hour token acting as `target` in an impersonation session, naming the admin and their token version in
   * `act` (D14): the admin's password change or reset ends it too.
   */
  issueImpersonation(target: UserEntity, admin: Pick<UserEntity, 'id' | 'tokenVersion'>, sessionId: string): string {
    return this.signer.sign(
      { sub: target.id, sid: sessionId, ver: target.tokenVersion, act: { sub: admin.id, ver: admin.tokenVersion } },
      IMPERSONATION_TTL_SECONDS,
    );
  }
}
