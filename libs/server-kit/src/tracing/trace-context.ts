import { context, INVALID_SPAN_CONTEXT, isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type Span } from '@opentelemetry/api';
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

/** Whether a context holds a span of a trace the edge chose to record (sampled). */
export function isRecordedTrace(active: Context): boolean {
  const span = trace.getSpanContext(active);
  return span !== undefined && isSpanContextValid(span) && (span.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
}

/**
 * The W3C traceparent of the active span (what a message or row carries onward), or null without one. A trace the
 * edge did not sample is not carried at all: past the gateway its requests, rows, events and jobs run with no span and
 * no instrumentation work, so the sampling ratio is also the share of the tracing cost paid (ADR 0049).
 */
export function currentTraceparent(active: Context = context.active()): string | null {
  if (!isRecordedTrace(active)) return null;
  const span = trace.getSpanContext(active)!;
  return `00-${span.traceId}-${span.spanId}-01`;
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
  /** When the work began, in epoch milliseconds, for a span recorded after the fact (default: now). */
  startTime?: number;
}

/** Ends a span as failed with the error's message. */
export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

// What inSpan and startSpan hand out when there is no recorded trace to continue: a span that records nothing.
const UNRECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** The parent context of a new span: the carried traceparent's, else (parent undefined) the active one. */
function parentContext(options: SpanOptions): Context {
  return options.parent === undefined ? context.active() : contextFromTraceparent(options.parent);
}

/**
 * Runs fn inside a new span (a child of `parent` when given, else of the active span) and ends it when fn settles.
 * Only a recorded trace is continued: without one (no parent, or one the edge did not sample) fn runs as it is, and
 * no new trace starts here; the gateway starts every trace (ADR 0049).
 */
export async function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T> | T): Promise<T> {
  const parent = parentContext(options);
  if (!isRecordedTrace(parent)) return fn(UNRECORDED);
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

/**
 * Starts a span the caller ends (for work that completes in a callback or stream), with the context it runs in; like
 * inSpan, only within a recorded trace (otherwise a span that records nothing, and the active context unchanged).
 */
export function startSpan(name: string, options: SpanOptions): { span: Span; context: Context } {
  const parent = parentContext(options);
  if (!isRecordedTrace(parent)) return { span: UNRECORDED, context: context.active() };
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes, startTime: options.startTime }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

export { SpanKind };
