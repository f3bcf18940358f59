import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { acceptRequestId, runWithRequestId } from '@market/server-kit';

const logger = new Logger('Http');

/** Gives every request an id (X-Request-Id), runs it in that context and writes one access-log line. */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const requestId = acceptRequestId(req.header('x-request-id'));
  res.setHeader('X-Request-Id', requestId);
  const started = process.hrtime.bigint();
  runWithRequestId(requestId, () => {
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      runWithRequestId(requestId, () =>
        logger.log({ msg: 'request', method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }),
      );
    });
    next();
  });
}
