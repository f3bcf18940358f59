import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Actor, Role } from '@market/contracts';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

interface TokenClaims {
  sub: string;
  role: Role;
  ver?: number;
  act?: { sub: string };
}

/** Verifies bearer tokens (HS256) and turns their claims into the actor passed to services. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.JWT_SECRET,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  validate(claims: TokenClaims): Actor {
    return {
      user_id: claims.sub,
      role: claims.role === 'admin' ? 'admin' : 'regular',
      token_version: claims.ver ?? 0,
      ...(claims.act?.sub ? { impersonator_id: claims.act.sub } : {}),
    };
  }
}
