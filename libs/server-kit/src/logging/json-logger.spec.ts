import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonLogger } from './json-logger';
import { runWithRequestId } from './request-context';

describe('JsonLogger', () => {
  const capture = (minLevel: 'debug' | 'info' = 'info') => {
    const lines: string[] = [];
    return { lines, logger: new JsonLogger('auth-service', minLevel, (line) => lines.push(line)) };
  };

  it('writes one JSON line with time, service, level, context and the current request id', () => {
    const { lines, logger } = capture();
    runWithRequestId('req-12345678', () => logger.log('hello', 'AuthService'));
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({ level: 'info', service: 'auth-service', context: 'AuthService', msg: 'hello', request_id: 'req-12345678' });
    expect(new Date(entry.time).toISOString()).toBe(entry.time);
    expect(entry).not.toHaveProperty('trace_id');
  });

  it('merges object messages and keeps error stacks', () => {
    const { lines, logger } = capture();
    logger.log({ msg: 'request', status: 201 });
    logger.error(new Error('boom'));
    expect(JSON.parse(lines[0])).toMatchObject({ msg: 'request', status: 201, request_id: null });
    expect(JSON.parse(lines[1])).toMatchObject({ level: 'error', msg: 'boom' });
    expect(JSON.parse(lines[1]).stack).toContain('Error: boom');
  });

  it('takes the stack Nest passes before the context', () => {
    const { lines, logger } = capture();
    const error = new Error('failed');
    logger.error('handler failed', error.stack, 'ExceptionsHandler');
    expect(JSON.parse(lines[0])).toMatchObject({ msg: 'handler failed', context: 'ExceptionsHandler' });
    expect(JSON.parse(lines[0]).stack).toContain('Error: failed');
  });

  it('drops lines below its level', () => {
    const { lines, logger } = capture('info');
    logger.debug('quiet');
    logger.verbose('quieter');
    logger.warn('loud');
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(['warn']);
  });

  it('redacts credentials, tokens and card data in logged objects', () => {
    const { lines, logger } = capture();
    logger.log({
      msg: 'request',
      password: 'hunter2-secret',
      headers: { authorization: 'Bearer abc.def.ghi', cookie: 'sid=s3cr3t', accept: 'text/html' },
      body: { token: 'one-time-7f3a', card: { number: '4242424242424242', cvc: '123' }, title: 'kept' },
    });
    const line = lines[0];
    for (const secret of ['hunter2-secret', 'abc.def.ghi', 's3cr3t', 'one-time-7f3a', '4242424242424242']) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ headers: { accept: 'text/html', authorization: '[redacted]' }, body: { title: 'kept', token: '[redacted]' } });
  });

  it("redacts a bidder's maximum in logged objects and messages (ADR 0055)", () => {
    const { lines, logger } = capture();
    logger.log({ msg: 'bid', max_amount: 98765, body: { listing_id: 'l-1', amount: 150, max_amount: 87654 } });
    logger.warn('bid refused {"amount":150,"max_amount":76543}');
    const text = lines.join('');
    for (const secret of ['98765', '87654', '76543']) expect(text).not.toContain(secret);
    expect(JSON.parse(lines[0])).toMatchObject({ max_amount: '[redacted]', body: { amount: 150, max_amount: '[redacted]' } });
  });

  it('blanks secrets embedded in messages and stacks', () => {
    const { lines, logger } = capture();
    logger.warn('retrying with Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl for user 42');
    logger.warn('reset link https://x.test/reset?token=4fa9c2e1b7 sent; password=Sup3rS3cret! card 4242 4242 4242 4242 order 1763800000000');
    logger.error(new Error('login failed for password: hunter2'));
    const text = lines.join('');
    for (const secret of ['eyJhbGciOiJIUzI1NiJ9', 'c2lnbmF0dXJl', '4fa9c2e1b7', 'Sup3rS3cret!', '4242 4242 4242 4242', 'hunter2']) expect(text).not.toContain(secret);
    expect(JSON.parse(lines[0]).msg).toContain('for user 42');
    // A long number that is not a card number (fails the Luhn check) stays.
    expect(JSON.parse(lines[1]).msg).toContain('order 1763800000000');
  });

  it('carries the trace and span ids of the active span', () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };
      const { lines, logger } = capture();
      context.with(trace.setSpanContext(context.active(), spanContext), () => logger.log('inside'));
      logger.log('outside');
      expect(JSON.parse(lines[0])).toMatchObject({ trace_id: spanContext.traceId, span_id: spanContext.spanId });
      expect(JSON.parse(lines[1])).not.toHaveProperty('trace_id');
    } finally {
      context.disable();
    }
  });
});
