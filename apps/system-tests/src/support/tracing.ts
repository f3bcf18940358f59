import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '@market/server-kit';

export interface TestTracing {
  spans(): ReadableSpan[];
  stop(): Promise<void>;
}

/**
 * Starts tracing in this jest process with an in-memory exporter, as each main.ts does with OTLP (ADR 0049). Jest loads
 * modules through its own registry, which the instrumentations' require hooks never see, so their patches are applied
 * here to the modules as jest loads them (http); the PostgreSQL and Redis spans patch the prototypes of the copies jest
 * loaded when tracing starts. The spans are the ones the real processes make.
 */
export function startTestTracing(): TestTracing {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing('system-test', { env: { OTEL_TRACES_SAMPLER_ARG: '1' }, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  if (!tracing) throw new Error('tracing did not start');
  const unpatches: Array<() => void> = [];
  for (const instrumentation of tracing.instrumentations) {
    for (const definition of instrumentation.getModuleDefinitions()) {
      // https is not used here; pg-pool is pg's own copy (its connect spans are not needed to follow a trace).
      if (definition.name === 'https' || definition.name === 'pg-pool') continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const loaded: unknown = require(definition.name);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const version = definition.name === 'http' ? process.versions.node : (require(`${definition.name}/package.json`) as { version: string }).version;
      const patched: unknown = definition.patch?.(loaded, version) ?? loaded;
      // Core modules are shared by every test file of this jest process: leave http as it was found.
      unpatches.push(() => definition.unpatch?.(patched, version));
    }
  }
  return {
    spans: () => exporter.getFinishedSpans(),
    stop: async () => {
      for (const unpatch of unpatches) unpatch();
      await tracing.shutdown();
      trace.disable();
    },
  };
}
