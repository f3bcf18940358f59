import { Injectable, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import type { Actor } from '@market/contracts';
import { unauthorized } from '@market/server-kit';

/** Requires a valid bearer token; anything else is a 401 with one plain detail. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<T>(error: unknown, actor: T): T {
    if (error || !actor) throw unauthorized('Not authenticated');
    return actor;
  }
}

/** The authenticated actor of the request. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  return context.switchToHttp().getRequest<Request & { user: Actor }>().user;
});
