import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '../start-tracing';

/** Tracing for a spec file: every trace recorded into an in-memory exporter; `stop` shuts it down and unregisters it. */
export function startTestTracing(): { exporter: InMemorySpanExporter; stop(): Promise<void> } {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing('unit', { env: { OTEL_TRACES_SAMPLER_ARG: '1' }, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    exporter,
    stop: async () => {
      await tracing?.shutdown();
      trace.disable();
    },
  };
}

/** Runs fn inside a recorded server span, as the gateway's HTTP span does in production: where every trace starts (ADR 0049). */
export function atTheEdge<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
  return trace.getTracer('edge').startActiveSpan(name, { kind: SpanKind.SERVER }, async (span) => {
    try {
      return await fn();
    } finally {
      span.end();
    }
  });
}
