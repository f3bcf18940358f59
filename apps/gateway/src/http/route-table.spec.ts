import 'reflect-metadata';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { RequestMethod, type Type } from '@nestjs/common';
import { HealthController, parseEnvOrThrow, generateSigningKeys, generateBusEnv } from '@market/server-kit';
import { API, apiDocument, type RouteDefinition } from '@market/contracts';
import { GatewayModule } from '../gateway.module';
import { SiteFilesController } from '../site/site-files.controller';
import { gatewayEnv } from '../gateway.config';
import { nestPath, ROUTE_DEFINITION, RouteInputPipe } from './route.decorator';
import { RAW_BODY_PATHS } from './body-parsing';
import { idempotencyKeyOf } from './idempotency-key.decorator';

const controllers = GatewayModule.register(parseEnvOrThrow(gatewayEnv, { JWT_PUBLIC_KEYS: generateSigningKeys().JWT_PUBLIC_KEYS, ...generateBusEnv('gateway') })).controllers as Type[];
// The probes and the crawlers' files (ADR 0071) are site files at the root, not API routes.
const apiControllers = controllers.filter((controller) => controller !== HealthController && controller !== SiteFilesController);

/** Every handler of a controller that Nest routes: its method name, HTTP method, path and declared route. */
function handlers(controller: Type) {
  return Object.getOwnPropertyNames(controller.prototype)
    .filter((name) => name !== 'constructor')
    .map((name) => controller.prototype[name] as object)
    .filter((handler) => typeof handler === 'function' && Reflect.getMetadata(PATH_METADATA, handler) !== undefined)
    .map((handler) => ({
      name: (handler as { name: string }).name,
      method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
      path: Reflect.getMetadata(PATH_METADATA, handler) as string,
      route: Reflect.getMetadata(ROUTE_DEFINITION, handler) as RouteDefinition | undefined,
    }));
}

const declared = Object.values(API).flatMap((group) => Object.values(group) as RouteDefinition[]);

describe('the gateway serves exactly the routes contracts declare', () => {
  it('routes every handler through a declared route, with the controller adding no prefix', () => {
    for (const controller of apiControllers) {
      expect([controller.name, Reflect.getMetadata(PATH_METADATA, controller)]).toEqual([controller.name, '/']);
      for (const handler of handlers(controller)) {
        expect({ controller: controller.name, handler: handler.name, declared: handler.route !== undefined }).toEqual({
          controller: controller.name,
          handler: handler.name,
          declared: true,
        });
        expect(handler.path).toBe(nestPath(handler.route!));
        expect(handler.method).toBe(handler.route!.method.toUpperCase());
      }
    }
  });

  it('reads only the path parameters, query and body its route declares', () => {
    let checked = 0;
    for (const controller of apiControllers) {
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name] as object;
        const route = Reflect.getMetadata(ROUTE_DEFINITION, handler) as RouteDefinition | undefined;
        if (!route) continue;
        const args = Object.entries((Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { data?: string }>);
        for (const [key, { data }] of args) {
          const type = Number(key.split(':')[0]);
          const where = `${route.method} ${route.path} (${controller.name}.${name})`;
          if (type === RouteParamtypes.PARAM) expect([where, data !== undefined && data in (route.params?.shape ?? {})]).toEqual([where, true]);
          if (type === RouteParamtypes.QUERY) expect([where, route.query !== undefined && data === undefined]).toEqual([where, true]);
          if (type === RouteParamtypes.BODY) expect([where, Boolean(route.body || route.multipart || route.rawBody)]).toEqual([where, true]);
          if (type === RouteParamtypes.PARAM || type === RouteParamtypes.QUERY || type === RouteParamtypes.BODY) checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('reads the Idempotency-Key exactly on the routes that declare it (ADR 0047)', () => {
    const reading: string[] = [];
    for (const controller of apiControllers) {
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const route = Reflect.getMetadata(ROUTE_DEFINITION, controller.prototype[name] as object) as RouteDefinition | undefined;
        const args = Object.values((Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { factory?: unknown }>);
        if (route && args.some((arg) => arg.factory === idempotencyKeyOf)) reading.push(`${route.method} ${route.path}`);
      }
    }
    const declaring = declared.filter((route) => route.idempotent).map((route) => `${route.method} ${route.path}`);
    expect(reading.sort()).toEqual(declaring.sort());
    expect(declaring).toHaveLength(8);
  });

  it('serves each declared route exactly once', () => {
    const served = apiControllers.flatMap((controller) => handlers(controller).map((handler) => handler.route));
    for (const route of declared) expect([route.method, route.path, served.filter((r) => r === route).length]).toEqual([route.method, route.path, 1]);
    expect(served).toHaveLength(declared.length);
  });

  it('documents every declared route as one OpenAPI 3.1 operation', () => {
    const document = apiDocument() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(operations.sort()).toEqual(declared.map((route) => `${route.method} ${route.path}`).sort());
  });
});

describe('route inputs', () => {
  it('keeps the exact bytes only of routes that declare a raw body (the Stripe webhook)', () => {
    expect(RAW_BODY_PATHS).toEqual(['/api/webhooks/stripe']);
  });

  it('refuses, as a programming error, a path parameter or query a route does not declare', () => {
    const pipe = new RouteInputPipe(API.bids.history);
    expect(pipe.transform('6f1c1a52-4c6e-4b8e-9d59-2f0f3d8a7b10', { type: 'param', data: 'id' })).toBe('6f1c1a52-4c6e-4b8e-9d59-2f0f3d8a7b10');
    expect(() => pipe.transform('x', { type: 'param', data: 'listing' })).toThrow(/does not declare/);
    expect(() => pipe.transform({}, { type: 'query' })).toThrow(/does not declare/);
    expect(() => new RouteInputPipe(API.bids.userBids).transform('x', { type: 'param', data: 'id' })).toThrow(/does not declare/);
  });
});
