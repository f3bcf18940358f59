import { Logger } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import type { Actor } from '@market/contracts';
import { acceptRequestId, routeTemplate, runWithRequestId } from '@market/server-kit';

const logger = new Logger('Http');

// Probes come every few seconds from the orchestrator and Prometheus; a line each would drown the log (ADR 0049).
const PROBE = /^\/(healthz|readyz|metrics)\/?$/;

/**
 * Gives every request an id (X-Request-Id), runs it in that context and writes one access-log line with the route
 * template, method, user id, status and duration (ADR 0049).
 */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const requestId = acceptRequestId(req.header('x-request-id'));
  res.setHeader('X-Request-Id', requestId);
  const started = process.hrtime.bigint();
  // The request's trace (its HTTP span), so the access line carries its trace_id wherever 'finish' is emitted from.
  const traced = context.active();
  runWithRequestId(requestId, () => {
    res.on('finish', () => {
      if (PROBE.test(req.path)) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = routeTemplate(req);
      const user = (req as Request & { user?: Actor }).user;
      context.with(traced, () =>
        runWithRequestId(requestId, () =>
          logger.log({ msg: 'request', method: req.method, route, status: res.statusCode, user_id: user?.user_id ?? null, ms: Math.round(ms * 10) / 10 }),
        ),
      );
    });
    next();
  });
}
