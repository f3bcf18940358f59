import {
  HttpCode,
  Injectable,
  RequestMethod,
  RequestMapping,
  SetMetadata,
  UseGuards,
  UsePipes,
  applyDecorators,
  type ArgumentMetadata,
  type CanActivate,
  type PipeTransform,
  type Type,
} from '@nestjs/common';
import type { z } from 'zod';
import type { RouteDefinition, RouteReply } from '@market/contracts';
import { AdminGuard, JwtAuthGuard, OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { parseRequest } from './parse-request';

/** Metadata key under which a handler keeps the route it serves (the route-table test reads it). */
export const ROUTE_DEFINITION = 'market:route-definition';

const METHODS = {
  get: RequestMethod.GET,
  post: RequestMethod.POST,
  put: RequestMethod.PUT,
  patch: RequestMethod.PATCH,
  delete: RequestMethod.DELETE,
} as const;

const GUARDS: Record<RouteDefinition['auth'], Type<CanActivate>[]> = {
  public: [],
  optional: [OptionalJwtAuthGuard],
  user: [JwtAuthGuard],
  admin: [JwtAuthGuard, AdminGuard],
};

/** The Nest path of a route: `/listings/{id}` -> `listings/:id`. */
export function nestPath(route: RouteDefinition): string {
  return route.path.replace(/^\//, '').replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Validates a route's inputs with its declared schemas: each path parameter, the whole query, and a JSON body (a route
 * that also takes multipart or raw bytes parses its body itself). Failures are 422 detail lists located in that part.
 */
@Injectable()
export class RouteInputPipe implements PipeTransform {
  constructor(private readonly route: RouteDefinition) {}

  transform(value: unknown, metadata: ArgumentMetadata) {
    const { params, query, body, multipart, rawBody } = this.route;
    if (metadata.type === 'param') {
      // A handler reading a path parameter its route does not declare would get it unvalidated: a programming error.
      const schema = metadata.data ? (params?.shape as Record<string, z.ZodType> | undefined)?.[metadata.data] : params;
      if (!schema) throw new Error(`${this.route.method.toUpperCase()} ${this.route.path} reads path parameter ${metadata.data ?? '(all)'}, which its route does not declare`);
      return parseRequest(schema, value, 'path');
    }
    if (metadata.type === 'query') {
      if (!query || metadata.data) throw new Error(`${this.route.method.toUpperCase()} ${this.route.path} reads a query its route does not declare (read the whole declared query)`);
      return parseRequest(query, value, 'query');
    }
    if (metadata.type === 'body' && body && !multipart && !rawBody) return parseRequest(body, value, 'body');
    return value;
  }
}

/** A handler's return: the route's reply, or nothing when it wrote the response itself (@Res). */
type RouteHandler<D extends RouteDefinition> = (...args: never[]) => RouteReply<D> | Promise<RouteReply<D>> | Promise<void>;

/**
 * Serves one declared route (ADR 0028): its method and path, success status, guards for its auth, and validation of its
 * path, query and JSON body; the handler must return the route's reply type.
 */
export function Route<D extends RouteDefinition>(route: D) {
  const decorate = applyDecorators(
    SetMetadata(ROUTE_DEFINITION, route),
    RequestMapping({ path: nestPath(route), method: METHODS[route.method] }),
    HttpCode(route.status),
    UseGuards(...GUARDS[route.auth]),
    UsePipes(new RouteInputPipe(route)),
  );
  return <H extends RouteHandler<D>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    decorate(target, key, descriptor);
  };
}
