import { context, SpanKind, type Context, type Span } from '@opentelemetry/api';
import type { QueryRunner } from 'typeorm';
import { failSpan, inSpan, isRecordedTrace, startSpan } from './trace-context';

type Query = (this: QueryRunner, query: string, parameters?: unknown[], useStructuredResult?: boolean) => Promise<unknown>;

// Long statements are cut: a span carries the statement's shape, never parameter values (they are $1, $2...).
const MAX_STATEMENT_CHARS = 2000;
// A transaction's span lists its statements up to this length in all (ADR 0049).
const MAX_TRANSACTION_TEXT_CHARS = 4000;
/** A statement inside a traced transaction that takes this long gets a span of its own (a lock wait, a slow plan). */
export const SLOW_STATEMENT_MS = 20;

const BASE_ATTRIBUTES = { 'db.system.name': 'postgresql', 'db.system': 'postgresql' };

/** The statement's first keyword (SELECT, INSERT, BEGIN...), for the span's name. */
export function operationOf(statement: string): string {
  return /^\s*([A-Za-z]+)/.exec(statement)?.[1]?.toUpperCase() ?? 'QUERY';
}

const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text);

/** A transaction a recorded trace opened on one query runner: one span for all its statements. */
interface TracedTransaction {
  span: Span;
  context: Context;
  statements: string[];
  textLength: number;
  count: number;
  /** Statements that failed (a savepoint may have recovered the transaction; the span still says so). */
  failed: number;
}

const transactions = new WeakMap<QueryRunner, TracedTransaction>();

function statementAttributes(query: string) {
  return { ...BASE_ATTRIBUTES, 'db.operation.name': operationOf(query), 'db.query.text': cut(query, MAX_STATEMENT_CHARS) };
}

/** Adds a statement to its transaction's span; a slow one also becomes a child span with its own start and end. */
function recordStatement(tx: TracedTransaction, query: string, startedAt: number, endedAt: number, error: unknown) {
  tx.count += 1;
  if (error !== undefined) tx.failed += 1;
  const text = cut(query.trim(), MAX_STATEMENT_CHARS);
  if (tx.textLength + text.length <= MAX_TRANSACTION_TEXT_CHARS) {
    tx.statements.push(text);
    tx.textLength += text.length;
  }
  if (endedAt - startedAt < SLOW_STATEMENT_MS && error === undefined) return;
  const { span } = context.with(tx.context, () => startSpan(`pg ${operationOf(query)}`, { kind: SpanKind.CLIENT, attributes: statementAttributes(query), startTime: startedAt }));
  if (error !== undefined) failSpan(span, error);
  span.end(endedAt);
}

/** Ends a transaction's span at its COMMIT or ROLLBACK, naming its statements (shapes only) and their count. */
function endTransaction(runner: QueryRunner, tx: TracedTransaction, query: string, error: unknown) {
  transactions.delete(runner);
  const listed = tx.statements.join(';\n') + (tx.statements.length < tx.count ? `;\n… (${tx.count - tx.statements.length} more)` : '');
  tx.span.setAttributes({ 'db.query.text': listed, 'db.transaction.statements': tx.count, 'db.transaction.outcome': operationOf(query) });
  if (error !== undefined) failSpan(tx.span, error);
  else if (operationOf(query) === 'ROLLBACK') failSpan(tx.span, new Error('rolled back'));
  else if (tx.failed > 0) failSpan(tx.span, new Error(`${tx.failed} statement(s) failed`));
  tx.span.end();
}

const isTransactionEnd = (query: string) => /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i.test(query);
const isTransactionStart = (query: string) => /^\s*START\s+TRANSACTION\b/i.test(query);
// performance.now() values: the SDK places them on the wall clock with the offset it uses for every span (an epoch
// from Date.now() could sit outside its parent after the wall clock was adjusted).
const clock = () => performance.now();

/**
 * Makes PostgreSQL work a service sends through TypeORM's query runner client spans when it runs inside a recorded
 * trace, and leaves every other statement untouched: a lookup and a check, no wrapper (ADR 0049). A transaction is one span from
 * START TRANSACTION to COMMIT or ROLLBACK, listing its statements' shapes, with a child span only for a statement
 * slower than SLOW_STATEMENT_MS or failing: a bid's transactions were two thirds of its trace's spans, and spans are
 * what a recorded trace costs (ADR 0049). A statement outside a transaction is a span of its own. In place of the pg
 * instrumentation, whose work on every query, recorded or not, cost about 15% of a bid storm's throughput (ADR 0049).
 * Returns the function that takes the spans off again.
 */
export function traceDatabaseQueries(): () => void {
  // Loaded here, with tracing on, so the SDK-free path never touches TypeORM's internals.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PostgresQueryRunner } = require('typeorm/driver/postgres/PostgresQueryRunner') as { PostgresQueryRunner: { prototype: { query: Query } } };
  const original = PostgresQueryRunner.prototype.query;
  // Not async: an untraced statement outside a traced transaction costs one map lookup and one check (ADR 0049).
  PostgresQueryRunner.prototype.query = function tracedQuery(this: QueryRunner, query: string, parameters?: unknown[], useStructuredResult?: boolean) {
    const tx = transactions.get(this);
    if (tx && !isTransactionStart(query)) return inTransaction(this, tx, query, parameters, useStructuredResult);
    // A START on a runner whose traced transaction never ended (released without COMMIT or ROLLBACK): that one is over.
    if (tx) abandon(this, tx);
    if (!isRecordedTrace(context.active())) return original.call(this, query, parameters, useStructuredResult);
    if (isTransactionStart(query)) return openTransaction(this, query, parameters, useStructuredResult);
    return inSpan(`pg ${operationOf(query)}`, { kind: SpanKind.CLIENT, attributes: statementAttributes(query) }, () => original.call(this, query, parameters, useStructuredResult));
  };

  async function inTransaction(runner: QueryRunner, tx: TracedTransaction, query: string, parameters?: unknown[], useStructuredResult?: boolean) {
    const startedAt = clock();
    let failure: unknown;
    try {
      return await original.call(runner, query, parameters, useStructuredResult);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      if (isTransactionEnd(query)) endTransaction(runner, tx, query, failure);
      else recordStatement(tx, query, startedAt, clock(), failure);
    }
  }

  async function openTransaction(runner: QueryRunner, query: string, parameters?: unknown[], useStructuredResult?: boolean) {
    const opened = startSpan('pg transaction', { kind: SpanKind.CLIENT, attributes: { ...BASE_ATTRIBUTES, 'db.operation.name': 'TRANSACTION' } });
    try {
      const result = await original.call(runner, query, parameters, useStructuredResult);
      transactions.set(runner, { span: opened.span, context: opened.context, statements: [], textLength: 0, count: 0, failed: 0 });
      return result;
    } catch (error) {
      failSpan(opened.span, error);
      opened.span.end();
      throw error;
    }
  }

  function abandon(runner: QueryRunner, tx: TracedTransaction) {
    transactions.delete(runner);
    failSpan(tx.span, new Error('ended without COMMIT or ROLLBACK'));
    tx.span.end();
  }
  return () => {
    PostgresQueryRunner.prototype.query = original;
  };
}
