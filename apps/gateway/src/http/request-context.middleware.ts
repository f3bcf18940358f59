import { Logger } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import type { Actor } from '@market/contracts';
import { acceptRequestId, runWithRequestId } from '@market/server-kit';

const logger = new Logger('Http');

// Probes come every few seconds from the orchestrator and Prometheus; a line each would drown the log (ADR 0049).
const PROBE = /^\/(healthz|readyz|metrics)\/?$/;

/** The route template a request matched (`/api/listings/:id`), never the raw path with its ids; null when none matched. */
export function routeTemplate(req: Request): string | null {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : null;
}

/**
 * Gives every request an id (X-Request-Id), runs it in that context and writes one access-log line with the route
 * template, method, user id, status and duration (ADR 0049); the HTTP span is named after the route.
 */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const requestId = acceptRequestId(req.header('x-request-id'));
  res.setHeader('X-Request-Id', requestId);
  const started = process.hrtime.bigint();
  const span = trace.getActiveSpan();
  runWithRequestId(requestId, () => {
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = routeTemplate(req);
      if (route) span?.updateName(`${req.method} ${route}`).setAttribute('http.route', route);
      if (PROBE.test(req.path)) return;
      const user = (req as Request & { user?: Actor }).user;
      runWithRequestId(requestId, () =>
        logger.log({ msg: 'request', method: req.method, route, status: res.statusCode, user_id: user?.user_id ?? null, ms: Math.round(ms * 10) / 10 }),
      );
    });
    next();
  });
}
