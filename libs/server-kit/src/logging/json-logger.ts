import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './request-context';
import { activeTraceIds } from '../tracing/trace-context';
import { REDACT_PATHS, REDACTED, scrubMessage } from './redaction';

type Level = 'debug' | 'info' | 'warn' | 'error';

// One asynchronous stdout stream per process, shared by every logger; pino flushes it when the process exits.
let stdout: DestinationStream | null = null;
const processStdout = () => (stdout ??= pino.destination({ dest: 1, sync: false }));

/**
 * Nest logger on pino (ADR 0049): one JSON object per line with time, level, service, request_id, trace_id/span_id
 * when a span is active, context, msg and stack; secrets are redacted by key and blanked inside messages. Written
 * asynchronously to stdout, or to `write` when given (tests).
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Logger;

  constructor(service: string, minLevel: Level = 'info', write?: (line: string) => void) {
    this.pino = pino(
      {
        level: minLevel,
        base: { service },
        timestamp: () => `,"time":"${new Date().toISOString()}"`,
        formatters: { level: (label) => ({ level: label }) },
        mixin: () => ({ request_id: currentRequestId(), ...activeTraceIds() }),
        redact: { paths: REDACT_PATHS, censor: REDACTED },
      },
      write ? { write } : processStdout(),
    );
  }

  log(message: unknown, ...rest: unknown[]) {
    this.emit('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.emit('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.emit('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.emit('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.emit('debug', message, rest);
  }

  private emit(level: Level, message: unknown, rest: unknown[]) {
    if (!this.pino.isLevelEnabled(level)) return;
    // Nest passes the context as the last string argument and, for errors, a stack before it.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const entry: Record<string, unknown> = { context };
    let msg: string | undefined;
    if (message instanceof Error) {
      msg = message.message;
      entry.stack = message.stack;
    } else if (typeof message === 'object' && message !== null) {
      Object.assign(entry, message);
      if (typeof entry.msg === 'string') msg = entry.msg;
      delete entry.msg;
    } else {
      msg = String(message);
    }
    const stack = rest.find((item) => typeof item === 'string' && item.includes('\n    at '));
    if (stack) entry.stack = stack;
    if (typeof entry.stack === 'string') entry.stack = scrubMessage(entry.stack);
    if (msg === undefined) this.pino[level](entry);
    else this.pino[level](entry, scrubMessage(msg));
  }
}
