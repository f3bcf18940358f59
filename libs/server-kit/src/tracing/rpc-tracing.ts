import { context, type Span } from '@opentelemetry/api';
import { finalize, Observable, tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { RpcMeta } from '@market/contracts';
import { currentTraceparent, failSpan, SpanKind, startSpan } from './trace-context';

/** A refusal the caller caused (a 4xx answer) is an outcome, not a failed span. */
function failsSpan(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status ?? (error as { error?: { status?: unknown } } | null)?.error?.status;
  return !(typeof status === 'number' && status < 500);
}

const natsAttributes = (subject: string) => ({ 'messaging.system': 'nats', 'messaging.destination.name': subject });

/** Starts the client span of a NATS request and puts its traceparent in the envelope's meta (ADR 0049). */
export function startRpcSpan(subject: string, meta: RpcMeta): Span {
  const started = startSpan(`${subject} request`, { kind: SpanKind.CLIENT, attributes: natsAttributes(subject) });
  const traceparent = currentTraceparent(started.context);
  if (traceparent) meta.traceparent = traceparent;
  return started.span;
}

/** Marks a request's span failed, unless the answer was a refusal the caller caused (a 4xx). */
export function failRpcSpan(span: Span, error: unknown): void {
  if (failsSpan(error)) failSpan(span, error);
}

/** Ends a request's span when its answer arrives or it fails (an rxjs operator). */
export function endsSpan<T>(span: Span): MonoTypeOperatorFunction<T> {
  return (source) =>
    source.pipe(
      tap({
        error: (error: unknown) => failRpcSpan(span, error),
      }),
      finalize(() => span.end()),
    );
}

/** Runs a NATS handler inside a server span continuing the caller's traceparent; the span ends with the answer. */
export function handleInServerSpan<T>(subject: string, traceparent: string | null | undefined, handle: () => Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    // A request outside a recorded trace is handled as it is: no span, no context (ADR 0049).
    if (!traceparent) return handle().subscribe(subscriber);
    const started = startSpan(subject, { kind: SpanKind.SERVER, parent: traceparent, attributes: natsAttributes(subject) });
    // Subscribed inside the span's context too: the interceptors after this one resume in callbacks registered then.
    return context.with(started.context, () => handle().pipe(endsSpan(started.span)).subscribe(subscriber));
  });
}
