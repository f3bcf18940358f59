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
      secretOrKey: config.JWT_SECRET,
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
