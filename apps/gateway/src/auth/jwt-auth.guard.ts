import { Injectable, createParamDecorator, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import type { Actor } from '@market/contracts';
import { AppError, forbidden, unauthorized } from '@market/server-kit';

/** Requires a valid bearer token whose session still stands; anything else is a 401 with one plain detail. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<T>(error: unknown, actor: T): T {
    if (error instanceof AppError) throw error;
    if (error || !actor) throw unauthorized('Not authenticated');
    return actor;
  }
}

/** Public routes that show more to a signed-in caller: no token is a guest, a token must be valid. */
@Injectable()
export class OptionalJwtAuthGuard extends AuthGuard('jwt') {
  override canActivate(context: ExecutionContext) {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.headers.authorization) return true;
    return super.canActivate(context);
  }

  override handleRequest<T>(error: unknown, actor: T): T {
    if (error instanceof AppError) throw error;
    if (error || !actor) throw unauthorized('Not authenticated');
    return actor;
  }
}

/** The actor of a request that may be anonymous (with OptionalJwtAuthGuard). */
export const OptionalActor = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Actor | null => context.switchToHttp().getRequest<Request & { user?: Actor }>().user ?? null,
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
