import { context } from '@opentelemetry/api';
import type { Redis } from 'ioredis';
import { failSpan, isRecordedTrace, SpanKind, startSpan } from './trace-context';

/** What ioredis hands Redis.prototype.sendCommand: the command's name and the promise its answer settles. */
interface Command {
  name?: unknown;
  promise?: Promise<unknown>;
}

type SendCommand = (this: Redis, command: Command, stream?: unknown) => unknown;

/**
 * Makes every Redis command sent inside a recorded trace a client span `redis <COMMAND>`, ended when its answer (or
 * error) arrives, and leaves every other command untouched after one check (ADR 0049). In place of the ioredis
 * instrumentation, which built a span, its attributes and wrapped callbacks for each command of every request the
 * gateway did not record as well (its `requireParentSpan` sees the unrecorded request's span as a parent). Keys and
 * arguments never reach a span: keys hold session ids. Returns the function that takes the spans off again.
 */
export function traceRedisCommands(): () => void {
  // Loaded here, with tracing on, so the SDK-free path never touches ioredis's prototype.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const prototype = (require('ioredis') as { Redis: { prototype: { sendCommand: SendCommand } } }).Redis.prototype;
  const original = prototype.sendCommand;
  prototype.sendCommand = function tracedSendCommand(this: Redis, command: Command, stream?: unknown) {
    if (!isRecordedTrace(context.active()) || typeof command?.name !== 'string') return original.call(this, command, stream);
    const operation = command.name.toUpperCase();
    const { span } = startSpan(`redis ${operation}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'redis', 'db.system': 'redis', 'db.operation.name': operation },
    });
    try {
      const sent = original.call(this, command, stream);
      command.promise?.then(
        () => span.end(),
        (error: unknown) => {
          failSpan(span, error);
          span.end();
        },
      );
      return sent;
    } catch (error) {
      failSpan(span, error);
      span.end();
      throw error;
    }
  };
  return () => {
    prototype.sendCommand = original;
  };
}
