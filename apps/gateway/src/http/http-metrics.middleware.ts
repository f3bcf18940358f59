import type { NextFunction, Request, Response } from 'express';
import { histogram, LATENCY_BUCKETS } from '@market/server-kit';

const requestDuration = () =>
  histogram({
    name: 'market_http_request_duration_seconds',
    help: 'HTTP requests the gateway answered, by route template (never the raw path), method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS,
  });

// Everything a controller route did not answer (the web app's files, unknown paths) shares one label value.
export const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The Express route template a request matched, e.g. /api/listings/:id; UNMATCHED_ROUTE when none did. */
export function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
}

/** Times every request into market_http_request_duration_seconds once its answer is sent (ADR 0048). */
export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const end = requestDuration().startTimer();
  res.once('finish', () => {
    end({ route: routeTemplate(req), method: METHODS.has(req.method) ? req.method : 'OTHER', status: String(res.statusCode) });
  });
  next();
}
