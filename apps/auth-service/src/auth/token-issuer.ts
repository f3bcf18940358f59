import { createSecretKey, type KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import type { UserEntity } from '../users/user.entity';

export const IMPERSONATION_TTL_SECONDS = 3600;

/** Signs session tokens (HS256) carrying the user, role and token version (D14). */
@Injectable()
export class TokenIssuer {
  // Made once: given a string, jsonwebtoken tries to parse it as a PEM private key on every signature first.
  private readonly key: KeyObject;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.key = createSecretKey(Buffer.from(config.JWT_SECRET));
  }

  issue(user: UserEntity): string {
    return jwt.sign({ role: user.role, ver: user.tokenVersion }, this.key, {
      algorithm: 'HS256',
      subject: user.id,
      expiresIn: this.config.JWT_TTL_SECONDS,
    });
  }

  /** A one-hour token acting as `target`, naming the admin in `act` (D14). */
  issueImpersonation(target: UserEntity, adminId: string): string {
    return jwt.sign({ role: target.role, ver: target.tokenVersion, act: { sub: adminId } }, this.key, {
      algorithm: 'HS256',
      subject: target.id,
      expiresIn: IMPERSONATION_TTL_SECONDS,
    });
  }
}
