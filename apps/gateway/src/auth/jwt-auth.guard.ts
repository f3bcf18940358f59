import { Injectable, createParamDecorator, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Actor } from '@market/contracts';
import { forbidden, IdentityVerifier, unauthorized } from '@market/server-kit';
import { LastSeen } from './last-seen';
import { AuditTrail } from '../security/audit-trail';

type AuthenticatedRequest = Request & { user?: Actor | null };

/** The bearer token of a request, or null when it sent none; a malformed Authorization header is a 401. */
function bearerToken(request: Request): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(header.trim());
  if (!match) throw unauthorized('Not authenticated');
  return match[1];
}

/**
 * Verifies the request's token with the public keys and the account's current state (ADR 0030), and notes its session
 * in use. A request made with an impersonation token is audited here, before any guard decides on it, so one an admin
 * route refuses is in the audit log too (D14); when it cannot be recorded the request is refused (503).
 */
@Injectable()
export class TokenAuthenticator {
  constructor(
    private readonly verifier: IdentityVerifier,
    private readonly lastSeen: LastSeen,
    private readonly audit: AuditTrail,
  ) {}

  async authenticate(request: AuthenticatedRequest): Promise<Actor | null> {
    const actor = await this.verifier.actorFrom(bearerToken(request));
    if (actor?.session_id) this.lastSeen.note(actor.session_id);
    if (actor?.impersonator_id) await this.audit.record(actor.impersonator_id, actor.user_id, 'request', request.method, request.originalUrl.split('?')[0]);
    request.user = actor;
    return actor;
  }
}

/** Requires a valid bearer token whose session still stands; anything else is a 401 with one plain detail. */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(private readonly authenticator: TokenAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const actor = await this.authenticator.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>());
    if (!actor) throw unauthorized('Not authenticated');
    return true;
  }
}

/** Public routes that show more to a signed-in caller: no token is a guest, a token must be valid. */
@Injectable()
export class OptionalJwtAuthGuard implements CanActivate {
  constructor(private readonly authenticator: TokenAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticator.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>());
    return true;
  }
}

/** The actor of a request that may be anonymous (with OptionalJwtAuthGuard). */
export const OptionalActor = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Actor | null => context.switchToHttp().getRequest<AuthenticatedRequest>().user ?? null,
);

function actorOf(context: ExecutionContext): Actor {
  return context.switchToHttp().getRequest<Request & { user: Actor }>().user;
}

/** Admin routes: a real admin session, never an impersonation token (D14). Use after JwtAuthGuard. */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const actor = actorOf(context);
    if (actor.impersonator_id) throw forbidden('Admin routes are not available while impersonating a user');
    if (actor.role !== 'admin') throw forbidden('Admin access required');
    return true;
  }
}

/** The authenticated actor of the request. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => actorOf(context));
