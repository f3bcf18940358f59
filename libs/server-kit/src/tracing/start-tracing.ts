import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import { traceDatabaseQueries } from './query-spans';
import { traceRedisCommands } from './redis-spans';

export interface TracingOptions {
  /** Where the variables are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Span processors to use instead of the OTLP exporter (tests: an in-memory exporter); tracing is then on. */
  spanProcessors?: SpanProcessor[];
}

export interface Tracing {
  instrumentations: InstrumentationBase[];
  /** Exports what is buffered and stops the provider. */
  shutdown(): Promise<void>;
}

// Probes answer every few seconds and tell nothing about a request (ADR 0049).
const UNTRACED_PATHS = /^\/(healthz|readyz|metrics)(\/|\?|$)/;
// Query parameters whose values never reach a span: one-time tokens in verification, reset and undo links (ADR 0008),
// besides the instrumentation's own list of signed-URL parameters (which an explicit list replaces).
export const REDACTED_QUERY_PARAMS = ['token', 'code', 'sig', 'Signature', 'AWSAccessKeyId', 'X-Goog-Signature', 'X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token'];

/** The route template express matched for a request (`/api/listings/:id`), or null when none did. */
export function routeTemplate(request: object): string | null {
  const { route, baseUrl } = request as { route?: { path?: unknown }; baseUrl?: unknown };
  return typeof route?.path === 'string' ? `${typeof baseUrl === 'string' ? baseUrl : ''}${route.path}` : null;
}

// The share of new traces the gateway records unless OTEL_TRACES_SAMPLER_ARG says otherwise: a trace the gateway does
// not record costs the services nothing (ADR 0049), and one in ten is enough to see where a storm's time goes.
export const DEFAULT_SAMPLER_RATIO = 0.1;

/**
 * Whether an incoming HTTP request starts a recorded trace: never for probes and scrapes, else with probability
 * `ratio`. Decided before the http instrumentation does any work, so the requests it does not record cost one call.
 */
export function startsRecordedTrace(url: string, ratio: number, random: () => number = Math.random): boolean {
  return !UNTRACED_PATHS.test(url) && random() < ratio;
}

/** The sampling ratio from OTEL_TRACES_SAMPLER_ARG (default DEFAULT_SAMPLER_RATIO), or an error line. */
export function samplerRatio(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_SAMPLER_RATIO;
  const ratio = Number(value);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw new Error(`Invalid configuration: OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1 (got "${value}")`);
  return ratio;
}

/**
 * Starts OpenTelemetry for this process, first thing in main.ts so the http instrumentation patches
 * that module as it loads (ADR 0049). Off (nothing loaded beyond the API's no-ops) unless OTEL_EXPORTER_OTLP_ENDPOINT
 * is set or span processors are given; a bad OTEL_TRACES_SAMPLER_ARG stops the process with one line.
 */
export function startTracing(serviceName: string, options: TracingOptions = {}): Tracing | null {
  const env = options.env ?? process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint && !options.spanProcessors) return null;
  let ratio: number;
  try {
    ratio = samplerRatio(env.OTEL_TRACES_SAMPLER_ARG);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  // Loaded only when tracing is on, so a process without it pays nothing for the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const base = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  let spanProcessors = options.spanProcessors;
  if (!spanProcessors) {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    spanProcessors = [new base.BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint!.replace(/\/+$/, '')}/v1/traces` }))];
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    // A caller's decision is kept, so a trace is whole or absent. New traces are sampled at the ratio where they start,
    // the HTTP server (ignoreIncomingRequestHook below): the root span of a request that got past it is recorded. Only
    // that instrumentation starts traces (inSpan/startSpan continue recorded ones only; outgoing HTTP needs a parent).
    sampler: new base.ParentBasedSampler({ root: new base.AlwaysOnSampler() }),
    spanProcessors,
  });
  // No global propagator: the trace context crosses NATS, the outbox and jobs through trace-context.ts, and an HTTP
  // caller's traceparent (or a provider's) is neither read nor sent; the gateway starts every trace (ADR 0049).
  provider.register({ contextManager: new AsyncLocalStorageContextManager(), propagator: null });
  const instrumentations: InstrumentationBase[] = [
    new HttpInstrumentation({
      // The sampling decision itself (ADR 0049): a request not recorded is ignored here, before the instrumentation
      // computes its attributes, starts a span that records nothing and wraps its response, as it would for a
      // request the sampler then drops; nine in ten of the gateway's requests at the default ratio.
      ignoreIncomingRequestHook: (request) => !startsRecordedTrace(request.url ?? '', ratio),
      redactedQueryParamsServer: REDACTED_QUERY_PARAMS,
      redactedQueryParams: REDACTED_QUERY_PARAMS,
      // Named after the route template express matched (`POST /api/listings/:id`), never the raw path with its ids.
      applyCustomAttributesOnSpan: (span, request) => {
        const route = routeTemplate(request);
        if (route && 'method' in request) span.updateName(`${request.method} ${route}`).setAttribute('http.route', route);
      },
      // Polls and sweeps with no request around them would each start a trace of their own.
      requireParentforOutgoingSpans: true,
    }),
  ];
  registerInstrumentations({ tracerProvider: provider, instrumentations });
  // PostgreSQL statements and Redis commands: our own spans, made inside recorded traces only, not the pg and ioredis
  // instrumentations, which work on every query and command (ADR 0049).
  const untraceQueries = traceDatabaseQueries();
  const untraceRedis = traceRedisCommands();
  active = provider;
  return {
    instrumentations,
    shutdown: async () => {
      untraceQueries();
      untraceRedis();
      await provider.shutdown();
    },
  };
}

let active: { forceFlush(): Promise<void> } | null = null;

/** Exports the spans still buffered (a stopping process would lose its last few seconds of traces otherwise). */
export async function flushTraces(): Promise<void> {
  await active?.forceFlush().catch(() => undefined);
}
