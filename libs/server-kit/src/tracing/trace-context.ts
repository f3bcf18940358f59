import { context, isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type Span } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from 'nats';

const tracer = () => trace.getTracer('@market/server-kit');
const TRACEPARENT = 'traceparent';

/** The active trace and span ids for log lines, or nothing when no span is active. */
export function activeTraceIds(): { trace_id: string; span_id: string } | null {
  const span = trace.getSpanContext(context.active());
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : null;
}

// W3C trace context, version 00: trace id, parent span id, flags (ADR 0049). Read and written here rather than through
// a global propagator, so the gateway's HTTP server never takes a caller's trace (nor its sampling) from the internet.
const TRACEPARENT_FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C traceparent of the active span (what a message or row carries onward), or null without one. */
export function currentTraceparent(active: Context = context.active()): string | null {
  const span = trace.getSpanContext(active);
  if (!span || !isSpanContextValid(span)) return null;
  const sampled = (span.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
  return `00-${span.traceId}-${span.spanId}-${sampled ? '01' : '00'}`;
}

/** The context a carried traceparent continues (the root context when it is missing or malformed). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  const parts = typeof traceparent === 'string' ? TRACEPARENT_FORMAT.exec(traceparent) : null;
  if (!parts) return ROOT_CONTEXT;
  const span = { traceId: parts[1], spanId: parts[2], traceFlags: Number.parseInt(parts[3], 16) & TraceFlags.SAMPLED, isRemote: true };
  return isSpanContextValid(span) ? trace.setSpanContext(ROOT_CONTEXT, span) : ROOT_CONTEXT;
}

/** NATS headers carrying a traceparent, or undefined when there is none to carry. */
export function traceHeaders(traceparent: string | null | undefined): MsgHdrs | undefined {
  if (!traceparent) return undefined;
  const carried = natsHeaders();
  carried.set(TRACEPARENT, traceparent);
  return carried;
}

/** The traceparent a NATS message carries in its headers, if any. */
export function traceparentOf(carried: MsgHdrs | undefined): string | null {
  return carried?.get(TRACEPARENT) || null;
}

export interface SpanOptions {
  kind: SpanKind;
  /** The traceparent to continue; without one (undefined) the active context is the parent. */
  parent?: string | null;
  attributes?: Record<string, string | number | boolean>;
}

/** Ends a span as failed with the error's message. */
export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Runs fn inside a new span (a child of `parent` when given, else of the active span) and ends it when fn settles. */
export async function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T> | T): Promise<T> {
  const parent = options.parent === undefined ? context.active() : contextFromTraceparent(options.parent);
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Starts a span the caller ends (for work that completes in a callback or stream), with the context it runs in. */
export function startSpan(name: string, options: SpanOptions): { span: Span; context: Context } {
  const parent = options.parent === undefined ? context.active() : contextFromTraceparent(options.parent);
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

export { SpanKind };
