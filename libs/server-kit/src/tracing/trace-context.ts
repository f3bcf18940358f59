import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from 'nats';

const tracer = () => trace.getTracer('@market/server-kit');
const TRACEPARENT = 'traceparent';

/** The active trace and span ids for log lines, or nothing when no span is active. */
export function activeTraceIds(): { trace_id: string; span_id: string } | null {
  const span = trace.getSpanContext(context.active());
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : null;
}

/** The W3C traceparent of the active span (what a message or row carries onward), or null without one. */
export function currentTraceparent(active: Context = context.active()): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  return carrier[TRACEPARENT] ?? null;
}

/** The context a carried traceparent continues (the root context when it is missing or malformed). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  if (typeof traceparent !== 'string' || traceparent === '') return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { [TRACEPARENT]: traceparent });
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
