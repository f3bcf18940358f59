import type { NextFunction, Request, Response } from 'express';
import { counter, histogram, LATENCY_BUCKETS } from '@market/server-kit';

const requestDuration = () =>
  histogram({
    name: 'market_http_request_duration_seconds',
    help: 'HTTP requests the gateway answered, by route template (never the raw path), method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS,
  });

const shed = () =>
  counter({
    name: 'market_http_shed_total',
    help: 'HTTP requests the system turned away on purpose (503 overloaded: a full bid queue, a busy listing, no upload slot), by route and method',
    labelNames: ['route', 'method'],
  });

// Everything a controller route did not answer (the web app's files, unknown paths) shares one label value.
export const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The Express route template a request matched, e.g. /api/listings/:id; UNMATCHED_ROUTE when none did. */
export function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
}

/**
 * Times every request into market_http_request_duration_seconds once its answer is sent (ADR 0048), and counts the
 * deliberate sheds among the 503s into market_http_shed_total.
 */
export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const end = requestDuration().startTimer();
  res.once('finish', () => {
    const labels = { route: routeTemplate(req), method: METHODS.has(req.method) ? req.method : 'OTHER' };
    end({ ...labels, status: String(res.statusCode) });
    // Counted beside the status, not instead of it: every 503 is still a 503 in the histogram (docs/slo.md).
    if (res.statusCode === 503 && res.locals.shed === true) shed().inc(labels);
  });
  next();
}
