import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { NextFunction, Request, Response } from 'express';
import { JsonLogger } from '@market/server-kit';
import { requestContext } from './request-context.middleware';

/** A request through the middleware that `handle` answers; resolves with the log lines written. */
function serve(path: string, handle: (req: Request, res: Response) => void, headers: Record<string, string> = {}) {
  const lines: string[] = [];
  Logger.overrideLogger(new JsonLogger('gateway', 'info', (line) => lines.push(line)));
  const req = { method: 'POST', path, baseUrl: '', header: (name: string) => headers[name.toLowerCase()] } as unknown as Request;
  const res = Object.assign(new EventEmitter(), { statusCode: 200, setHeader: jest.fn() }) as unknown as Response;
  const next: NextFunction = () => {
    handle(req, res);
    res.emit('finish');
  };
  requestContext(req, res, next);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the gateway access log', () => {
  afterEach(() => Logger.overrideLogger(false));

  it('writes the route template, method, user id, status and duration under the request id', () => {
    const [line] = serve(
      '/api/listings/6f1c2e0a-0b8e-4c51-9d35-1f0ad0b9a001',
      (req, res) => {
        Object.assign(req, { route: { path: '/api/listings/:id' }, user: { user_id: 'u-1', role: 'regular' } });
        res.statusCode = 201;
      },
      { 'x-request-id': 'req-abcdef12' },
    );
    expect(line).toMatchObject({ msg: 'request', method: 'POST', route: '/api/listings/:id', status: 201, user_id: 'u-1', request_id: 'req-abcdef12' });
    expect(typeof line.ms).toBe('number');
    expect(JSON.stringify(line)).not.toContain('6f1c2e0a');
  });

  it('logs an anonymous request that matched no route with a null route and user', () => {
    const [line] = serve('/nowhere', (_req, res) => {
      res.statusCode = 404;
    });
    expect(line).toMatchObject({ route: null, user_id: null, status: 404 });
  });

  it('carries the trace id of the request\'s HTTP span, wherever the response finishes', () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    try {
      const span = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };
      let finish: () => void = () => undefined;
      const lines: string[] = [];
      Logger.overrideLogger(new JsonLogger('gateway', 'info', (line) => lines.push(line)));
      const req = { method: 'GET', path: '/api/site', baseUrl: '', header: () => undefined } as unknown as Request;
      const res = Object.assign(new EventEmitter(), { statusCode: 200, setHeader: jest.fn() }) as unknown as Response;
      context.with(trace.setSpanContext(context.active(), span), () => requestContext(req, res, () => (finish = () => res.emit('finish'))));
      // Emitted outside the request's context, as a socket's write completion can be.
      finish();
      expect(JSON.parse(lines[0])).toMatchObject({ msg: 'request', trace_id: span.traceId, span_id: span.spanId });
    } finally {
      context.disable();
    }
  });

  it('does not log health probes or metrics scrapes', () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) expect(serve(path, () => undefined)).toEqual([]);
  });
});
