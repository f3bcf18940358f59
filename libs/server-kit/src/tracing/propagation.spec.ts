import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { lastValueFrom, of, throwError } from 'rxjs';
import type { RpcMeta } from '@market/contracts';
import { samplerRatio, startsRecordedTrace, startTracing } from './start-tracing';
import { contextFromTraceparent, currentTraceparent, inSpan, traceHeaders, traceparentOf } from './trace-context';
import { endsSpan, handleInServerSpan, startRpcSpan } from './rpc-tracing';
import { consumeInSpan, publishInSpan } from './event-tracing';
import { atTheEdge, startTestTracing } from './testing/edge-tracing';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('trace propagation helpers', () => {
  let tracing: ReturnType<typeof startTestTracing>;

  beforeAll(() => {
    tracing = startTestTracing();
  });
  afterEach(() => tracing.exporter.reset());
  afterAll(() => tracing.stop());
  const unsampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';

  const finished = (name: string) => {
    const span = tracing.exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span) throw new Error(`no finished span ${name} among ${tracing.exporter.getFinishedSpans().map((s) => s.name).join(', ')}`);
    return span;
  };

  it('has no traceparent outside a span and the active span\'s inside one', async () => {
    expect(currentTraceparent()).toBeNull();
    const seen = await atTheEdge('outer', () => currentTraceparent());
    const outer = finished('outer');
    expect(seen).toBe(`00-${outer.spanContext().traceId}-${outer.spanContext().spanId}-01`);
  });

  it('continues a carried traceparent and ignores a malformed one', async () => {
    const carried = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await inSpan('continued', { kind: SpanKind.CONSUMER, parent: carried }, () => undefined);
    await inSpan('fresh', { kind: SpanKind.CONSUMER, parent: 'not-a-traceparent' }, () => undefined);
    expect(finished('continued').spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(parentOf(finished('continued'))).toBe('00f067aa0ba902b7');
    expect(trace.getSpanContext(contextFromTraceparent(null))).toBeUndefined();
    // All-zero ids are invalid by the W3C format.
    expect(trace.getSpanContext(contextFromTraceparent('00-00000000000000000000000000000000-00f067aa0ba902b7-01'))).toBeUndefined();
    // No new trace starts past the edge, and one the edge did not sample goes no further.
    expect(currentTraceparent(contextFromTraceparent(unsampled))).toBeNull();
    expect(await inSpan('unsampled', { kind: SpanKind.CONSUMER, parent: unsampled }, () => currentTraceparent())).toBeNull();
    expect(tracing.exporter.getFinishedSpans().map((s) => s.name)).toEqual(['continued']);
  });

  it('marks a span failed when its work throws, and rethrows', async () => {
    await expect(atTheEdge('edge', () => inSpan('failing', { kind: SpanKind.INTERNAL }, () => Promise.reject(new Error('db down'))))).rejects.toThrow('db down');
    expect(finished('failing').status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'db down' });
  });

  it('carries a traceparent in NATS headers and reads it back', () => {
    expect(traceHeaders(null)).toBeUndefined();
    expect(traceparentOf(undefined)).toBeNull();
    const value = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(traceparentOf(traceHeaders(value))).toBe(value);
  });

  it('makes the service span of a NATS request a child of the caller\'s client span', async () => {
    const meta: RpcMeta = { request_id: 'req-12345678', token: null };
    await atTheEdge('http', async () => {
      const span = startRpcSpan('bids.place', meta);
      const answer = await lastValueFrom(
        handleInServerSpan('bids.place', meta.traceparent, () => of(currentTraceparent())).pipe(endsSpan(span)),
      );
      expect(answer).toMatch(TRACEPARENT);
    });
    expect(meta.traceparent).toMatch(TRACEPARENT);
    const [http, client, server] = [finished('http'), finished('bids.place request'), finished('bids.place')];
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(parentOf(client)).toBe(http.spanContext().spanId);
    expect(parentOf(server)).toBe(client.spanContext().spanId);
    expect(new Set([http, client, server].map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it('fails a request span on a 5xx or transport error but not on a refusal', async () => {
    await atTheEdge('edge', async () => {
      const refused = startRpcSpan('refused', { request_id: 'r', token: null });
      await expect(lastValueFrom(throwError(() => ({ code: 'conflict', status: 409, detail: 'outbid' })).pipe(endsSpan(refused)))).rejects.toBeDefined();
      const broken = startRpcSpan('broken', { request_id: 'r', token: null });
      await expect(lastValueFrom(throwError(() => new Error('timeout')).pipe(endsSpan(broken)))).rejects.toThrow('timeout');
    });
    expect(finished('refused request').status.code).toBe(SpanStatusCode.UNSET);
    expect(finished('broken request').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('publishes an outbox row in a span continuing its stored trace, and consumers continue the message\'s', async () => {
    const stored = await atTheEdge('bid', () => currentTraceparent());
    let sent: ReturnType<typeof traceHeaders>;
    await publishInSpan({ name: 'bid.placed', traceparent: stored }, async (headers) => {
      sent = headers;
    });
    const handled = await consumeInSpan('bid.placed', 'notifications-service', sent!, async () => currentTraceparent());
    const [bid, publish, consume] = [finished('bid'), finished('bid.placed publish'), finished('bid.placed process')];
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    expect(consume.kind).toBe(SpanKind.CONSUMER);
    expect(parentOf(publish)).toBe(bid.spanContext().spanId);
    expect(traceparentOf(sent!)).toBe(`00-${publish.spanContext().traceId}-${publish.spanContext().spanId}-01`);
    expect(parentOf(consume)).toBe(publish.spanContext().spanId);
    expect(handled).toContain(consume.spanContext().spanId);
  });

  it('carries nothing past the edge for a trace it did not sample: no request span, no traceparent, no service span', async () => {
    const meta: RpcMeta = { request_id: 'req-12345678', token: null };
    const span = context.with(contextFromTraceparent(unsampled), () => startRpcSpan('bids.place', meta));
    // The service, in its own process, sees only the envelope.
    const answer = await lastValueFrom(handleInServerSpan('bids.place', meta.traceparent, () => of(trace.getSpan(context.active()))).pipe(endsSpan(span)));
    expect(meta.traceparent).toBeUndefined();
    expect(answer).toBeUndefined();
    expect(tracing.exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('publishes and consumes untraced events without spans', async () => {
    let sent: unknown = 'unset';
    await publishInSpan({ name: 'user.registered', traceparent: null }, async (headers) => {
      sent = headers;
    });
    expect(sent).toBeUndefined();
    expect(await consumeInSpan('user.registered', 'notifications-service', undefined, async () => currentTraceparent())).toBeNull();
    expect(tracing.exporter.getFinishedSpans()).toHaveLength(0);
  });
});

describe('tracing configuration', () => {
  it('is off without an OTLP endpoint', () => {
    expect(startTracing('unit', { env: {} })).toBeNull();
  });

  it('decides at the HTTP server which requests start a recorded trace, never a probe or a scrape', () => {
    expect(startsRecordedTrace('/api/bids', 0.1, () => 0.05)).toBe(true);
    expect(startsRecordedTrace('/api/bids', 0.1, () => 0.1)).toBe(false);
    expect(startsRecordedTrace('/api/bids', 0, () => 0)).toBe(false);
    expect(startsRecordedTrace('/api/bids', 1, () => 0.999)).toBe(true);
    for (const probe of ['/healthz', '/readyz', '/metrics', '/metrics?x=1']) expect(startsRecordedTrace(probe, 1, () => 0)).toBe(false);
    const started = Array.from({ length: 10_000 }, () => startsRecordedTrace('/api/bids', 0.1)).filter(Boolean).length;
    expect(started).toBeGreaterThan(800);
    expect(started).toBeLessThan(1200);
  });

  it('samples one trace in ten by default and refuses a ratio outside 0..1', () => {
    expect(samplerRatio(undefined)).toBe(0.1);
    expect(samplerRatio('1')).toBe(1);
    expect(samplerRatio('0.25')).toBe(0.25);
    expect(() => samplerRatio('2')).toThrow('OTEL_TRACES_SAMPLER_ARG');
    expect(() => samplerRatio('half')).toThrow('OTEL_TRACES_SAMPLER_ARG');
  });
});
