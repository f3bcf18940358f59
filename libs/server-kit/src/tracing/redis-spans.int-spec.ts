import { randomUUID } from 'node:crypto';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Redis } from 'ioredis';
import { startTracing, type Tracing } from './start-tracing';
import { contextFromTraceparent } from './trace-context';

/**
 * Redis commands as spans (ADR 0049): a client span per command inside a recorded trace, ended by Redis's answer and
 * failed by its error, with no key or argument; nothing outside one, nor inside a trace the edge did not record.
 */
describe('Redis command spans against a real Redis', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing | null;
  let redis: Redis;
  const key = `redis-spans-${randomUUID()}`;
  const unsampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';

  beforeAll(async () => {
    tracing = startTracing('redis-spans-test', { env: { OTEL_TRACES_SAMPLER_ARG: '1' }, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await redis?.del(key);
    redis?.disconnect();
    await tracing?.shutdown();
    trace.disable();
  });

  const edge = <T>(fn: () => Promise<T>): Promise<T> =>
    trace.getTracer('edge').startActiveSpan('POST /api/bids', { kind: SpanKind.SERVER }, async (span) => {
      try {
        return await fn();
      } finally {
        span.end();
      }
    });

  it('records the commands of a recorded trace only, each ended by its answer', async () => {
    await redis.set(key, 'outside');
    await context.with(contextFromTraceparent(unsampled), () => redis.get(key));
    expect(exporter.getFinishedSpans()).toHaveLength(0);

    const answers = await edge(async () => [await redis.set(key, 'session-secret', 'EX', 60), await redis.get(key)]);
    expect(answers).toEqual(['OK', 'session-secret']);
    const http = exporter.getFinishedSpans().find((span) => span.name === 'POST /api/bids');
    const commands = exporter.getFinishedSpans().filter((span) => span.name.startsWith('redis '));
    expect(commands.map((span) => span.name)).toEqual(['redis SET', 'redis GET']);
    for (const span of commands) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(http?.spanContext().spanId);
      expect(span.attributes).toMatchObject({ 'db.system.name': 'redis' });
      expect(JSON.stringify(span.attributes)).not.toContain(key);
      expect(JSON.stringify(span.attributes)).not.toContain('session-secret');
    }
  });

  it('fails the span of a command Redis refuses', async () => {
    exporter.reset();
    await expect(edge(() => redis.incr(key))).rejects.toThrow('not an integer');
    const incr = exporter.getFinishedSpans().find((span) => span.name === 'redis INCR');
    expect(incr?.status.code).toBe(SpanStatusCode.ERROR);
  });
});
