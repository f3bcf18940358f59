import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Actor, Role } from '@market/contracts';
import { unauthorized } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { SessionChecker } from './session-checker';

interface TokenClaims {
  sub: string;
  role: Role;
  ver?: number;
  act?: { sub: string };
}

export const SESSION_ENDED = 'Your session has ended. Please log in again.';

/** Verifies bearer tokens (HS256) and that their session still stands, then builds the actor passed to services. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly sessions: SessionChecker,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A key object made once: given a string, jsonwebtoken first tries (and fails) to parse it as a PEM public key on
      // every request, which cost the gateway a quarter of its CPU in the bid storm (docs/benchmarks.md).
      // passport-jwt's types predate key objects; it hands the value to jsonwebtoken, which takes one.
      secretOrKey: createSecretKey(Buffer.from(config.JWT_SECRET)) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(claims: TokenClaims): Promise<Actor> {
    const tokenVersion = claims.ver ?? 0;
    // Password change, reset, suspension and deletion bump the version or the status (D14).
    if (!(await this.sessions.isCurrent(claims.sub, tokenVersion))) throw unauthorized(SESSION_ENDED);
    return {
      user_id: claims.sub,
      role: claims.role === 'admin' ? 'admin' : 'regular',
      token_version: tokenVersion,
      ...(claims.act?.sub ? { impersonator_id: claims.act.sub } : {}),
    };
  }
}
