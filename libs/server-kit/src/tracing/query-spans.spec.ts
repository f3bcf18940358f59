import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { contextFromTraceparent } from './trace-context';
import { atTheEdge, startTestTracing } from './testing/edge-tracing';
import { operationOf, SLOW_STATEMENT_MS, traceDatabaseQueries } from './query-spans';

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
type Query = (this: object, q: string, p?: unknown[]) => Promise<unknown>;

/** PostgreSQL spans (ADR 0049) over TypeORM's query runner, whose driver call is replaced by a recorder here. */
describe('PostgreSQL spans', () => {
  let tracing: ReturnType<typeof startTestTracing>;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PostgresQueryRunner } = require('typeorm/driver/postgres/PostgresQueryRunner') as { PostgresQueryRunner: { prototype: { query: unknown } } };
  const real = PostgresQueryRunner.prototype.query;
  const sent: unknown[][] = [];
  // A statement naming `slow` answers after SLOW_STATEMENT_MS; one naming `broken` fails.
  const driver = async (...args: unknown[]) => {
    sent.push(args);
    const text = String(args[0]);
    if (text.includes('slow')) await new Promise((r) => setTimeout(r, SLOW_STATEMENT_MS + 5));
    if (text.includes('broken')) throw new Error('relation "broken" does not exist');
    return 'rows';
  };
  let untrace: () => void;
  const unsampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
  const query = (runner: object, q: string, p: unknown[] = []) => (PostgresQueryRunner.prototype.query as Query).call(runner, q, p);

  beforeAll(() => {
    tracing = startTestTracing();
  });
  // Each test wraps the recorder in place of the driver (startTracing's own wrapper of the real one is set aside).
  beforeEach(() => {
    PostgresQueryRunner.prototype.query = driver;
    untrace = traceDatabaseQueries();
    sent.length = 0;
  });
  afterEach(() => {
    untrace();
    PostgresQueryRunner.prototype.query = real;
    tracing.exporter.reset();
  });
  afterAll(() => tracing.stop());

  const spans = (name: string) => tracing.exporter.getFinishedSpans().filter((s) => s.name === name);

  it('makes a statement outside a transaction a client span inside a recorded trace only, without parameter values', async () => {
    const runner = {};
    expect(await query(runner, 'SELECT 1 WHERE $1', ['outside'])).toBe('rows');
    expect(await context.with(contextFromTraceparent(unsampled), () => query(runner, 'SELECT 2'))).toBe('rows');
    expect(tracing.exporter.getFinishedSpans()).toHaveLength(0);
    expect(await atTheEdge('bid', () => query(runner, '  insert INTO outbox (id) VALUES ($1)', ['secret-value']))).toBe('rows');
    const [span] = spans('pg INSERT');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(span)).toBe(spans('bid')[0].spanContext().spanId);
    expect(span.attributes).toMatchObject({ 'db.system.name': 'postgresql', 'db.operation.name': 'INSERT', 'db.query.text': '  insert INTO outbox (id) VALUES ($1)' });
    expect(JSON.stringify(span.attributes)).not.toContain('secret-value');
    expect(sent).toEqual([['SELECT 1 WHERE $1', ['outside'], undefined], ['SELECT 2', [], undefined], ['  insert INTO outbox (id) VALUES ($1)', ['secret-value'], undefined]]);
    expect(operationOf('with x as (select 1) select * from x')).toBe('WITH');
    expect(operationOf('')).toBe('QUERY');
  });

  it('makes a transaction one span listing its statements, with a child only for a slow statement', async () => {
    const runner = {};
    await atTheEdge('bid', async () => {
      await query(runner, 'START TRANSACTION');
      await query(runner, 'SELECT * FROM auctions WHERE listing_id = $1 FOR UPDATE', ['secret-listing']);
      await query(runner, 'UPDATE slow_table SET n = n + 1');
      await query(runner, 'INSERT INTO outbox (id) VALUES ($1)', ['secret-value']);
      await query(runner, 'COMMIT');
    });
    expect(tracing.exporter.getFinishedSpans().map((s) => s.name).sort()).toEqual(['bid', 'pg UPDATE', 'pg transaction']);
    const [tx] = spans('pg transaction');
    expect(parentOf(tx)).toBe(spans('bid')[0].spanContext().spanId);
    expect(tx.attributes).toMatchObject({
      'db.system.name': 'postgresql',
      'db.operation.name': 'TRANSACTION',
      'db.transaction.statements': 3,
      'db.transaction.outcome': 'COMMIT',
      'db.query.text': 'SELECT * FROM auctions WHERE listing_id = $1 FOR UPDATE;\nUPDATE slow_table SET n = n + 1;\nINSERT INTO outbox (id) VALUES ($1)',
    });
    expect(tx.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify(tracing.exporter.getFinishedSpans().map((s) => s.attributes))).not.toMatch(/secret/);
    const [slow] = spans('pg UPDATE');
    expect(parentOf(slow)).toBe(tx.spanContext().spanId);
    // Its times are the statement's own: within the transaction's, lasting at least the slow driver's wait. The SDK
    // places each span on the wall clock through Date.now(), whole milliseconds, so two spans agree within one.
    const ms = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;
    expect(ms(slow.startTime)).toBeGreaterThanOrEqual(ms(tx.startTime) - 1);
    expect(ms(slow.duration)).toBeGreaterThanOrEqual(SLOW_STATEMENT_MS);
    expect(ms(slow.endTime)).toBeLessThanOrEqual(ms(tx.endTime) + 1);
  });

  it('passes every statement of a traced transaction to the driver as it came, and lets go of the runner at its end', async () => {
    const runner = {};
    await atTheEdge('bid', async () => {
      await query(runner, 'START TRANSACTION');
      expect(await query(runner, 'INSERT INTO bids (id, amount) VALUES ($1, $2)', ['b1', 150])).toBe('rows');
      await query(runner, 'COMMIT');
    });
    expect(sent).toEqual([['START TRANSACTION', [], undefined], ['INSERT INTO bids (id, amount) VALUES ($1, $2)', ['b1', 150], undefined], ['COMMIT', [], undefined]]);
    tracing.exporter.reset();
    // Ended: a slow statement later on the same runner, outside any trace, is nobody's span.
    await query(runner, 'SELECT slow');
    expect(tracing.exporter.getFinishedSpans()).toEqual([]);
  });

  it('marks a transaction whose statement failed even when a savepoint saved it, and ends one a new START finds open', async () => {
    const runner = {};
    await atTheEdge('bid', async () => {
      await query(runner, 'START TRANSACTION');
      await query(runner, 'SAVEPOINT typeorm_1');
      await expect(query(runner, 'UPDATE broken SET n = 1')).rejects.toThrow('does not exist');
      await query(runner, 'ROLLBACK TO SAVEPOINT typeorm_1');
      await query(runner, 'COMMIT');
    });
    const [saved] = spans('pg transaction');
    expect(saved.attributes).toMatchObject({ 'db.transaction.statements': 3, 'db.transaction.outcome': 'COMMIT' });
    expect(saved.status).toMatchObject({ code: SpanStatusCode.ERROR, message: '1 statement(s) failed' });
    tracing.exporter.reset();

    // Released without COMMIT or ROLLBACK, then used for another transaction: the first ends there, marked.
    await atTheEdge('first', async () => {
      await query(runner, 'START TRANSACTION');
      await query(runner, 'SELECT 1');
    });
    await atTheEdge('second', async () => {
      await query(runner, 'START TRANSACTION');
      await query(runner, 'COMMIT');
    });
    const [abandoned, second] = spans('pg transaction');
    expect(abandoned.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'ended without COMMIT or ROLLBACK' });
    expect(parentOf(abandoned)).toBe(spans('first')[0].spanContext().spanId);
    expect(second.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(parentOf(second)).toBe(spans('second')[0].spanContext().spanId);
    expect(second.attributes['db.transaction.outcome']).toBe('COMMIT');
  });

  it('marks a transaction that failed or rolled back, with the failing statement as its own span', async () => {
    const runner = {};
    await atTheEdge('bid', async () => {
      await query(runner, 'START TRANSACTION');
      await expect(query(runner, 'SELECT * FROM broken')).rejects.toThrow('does not exist');
      await query(runner, 'ROLLBACK');
    });
    const [tx] = spans('pg transaction');
    expect(tx.status.code).toBe(SpanStatusCode.ERROR);
    expect(tx.attributes).toMatchObject({ 'db.transaction.statements': 1, 'db.transaction.outcome': 'ROLLBACK' });
    const [failed] = spans('pg SELECT');
    expect(failed.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'relation "broken" does not exist' });
    expect(parentOf(failed)).toBe(tx.spanContext().spanId);
  });

  it('leaves a transaction opened outside a recorded trace without spans, and the next one on the runner traced anew', async () => {
    const runner = {};
    await query(runner, 'START TRANSACTION');
    await atTheEdge('later', () => query(runner, 'INSERT INTO outbox (id) VALUES ($1)', ['x']));
    await query(runner, 'COMMIT');
    expect(tracing.exporter.getFinishedSpans().map((s) => s.name).sort()).toEqual(['later', 'pg INSERT']);
    tracing.exporter.reset();
    await atTheEdge('bid', async () => {
      await query(runner, 'START TRANSACTION');
      await query(runner, 'COMMIT');
    });
    await query(runner, 'SELECT 3');
    expect(tracing.exporter.getFinishedSpans().map((s) => s.name).sort()).toEqual(['bid', 'pg transaction']);
  });
});
