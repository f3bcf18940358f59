import { Client } from 'pg';
import { buildUser, eventually } from '@market/server-kit/testing';
import { bearer, get, post, signUp, startStack, type Stack } from '../support/start-stack';

// A short statement timeout for this file (ADR 0044), well under the gateway's 5 s wait for a service.
const STATEMENT_TIMEOUT_MS = 1_000;
// What a loaded test machine may add to the timeout before the answer is back.
const SLACK_MS = 2_000;
const BUSY = /busy right now; please try again/;

/** Sends a request and measures how long its answer took. */
async function timed<T extends { status: number }>(send: () => Promise<T>): Promise<T & { ms: number }> {
  const started = Date.now();
  const answer = await send();
  return { ...answer, ms: Date.now() - started };
}

describe('PostgreSQL slowed by a lock another session holds (ADR 0044)', () => {
  let stack: Stack;
  let locker: Client;
  let reader: Client;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth'], env: { DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) } });
    locker = new Client({ connectionString: stack.db.url, application_name: 'test-locker' });
    reader = new Client({ connectionString: stack.db.url });
    await locker.connect();
    await reader.connect();
  }, 60_000);
  afterAll(async () => {
    await locker?.query('ROLLBACK').catch(() => undefined);
    await locker?.end();
    await reader?.end();
    await stack?.stop();
  });

  /** Holds an ACCESS EXCLUSIVE lock on a table until release(), as a long migration or a stuck session would. */
  async function lock(table: string) {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE auth.${table} IN ACCESS EXCLUSIVE MODE`);
    return { release: () => locker.query('ROLLBACK') };
  }

  it('answers a registration 503 within the statement timeout and writes none of it, then takes it once the lock is gone', async () => {
    const user = buildUser();
    // Registration writes the user, its event, then its verification token: the lock stops it at the last step.
    const held = await lock('account_tokens');
    let answer;
    try {
      answer = await timed(() => post(`${stack.url}/api/auth/register`, user));
    } finally {
      await held.release();
    }
    expect(answer.status).toBe(503);
    expect(answer.body.detail).toMatch(BUSY);
    expect(answer.ms).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 50);
    expect(answer.ms).toBeLessThan(STATEMENT_TIMEOUT_MS + SLACK_MS);
    // Nothing half-written: neither the user row nor its event stayed behind.
    expect((await reader.query('SELECT 1 FROM auth.users WHERE lower(username) = lower($1)', [user.username])).rowCount).toBe(0);
    expect((await reader.query(`SELECT 1 FROM auth.outbox WHERE payload->>'username' = $1`, [user.username])).rowCount).toBe(0);

    const again = await post(`${stack.url}/api/auth/register`, user);
    expect(again.status).toBe(201);
    expect((await reader.query('SELECT 1 FROM auth.users WHERE lower(username) = lower($1)', [user.username])).rowCount).toBe(1);
    expect((await reader.query(`SELECT 1 FROM auth.outbox WHERE name = 'user.registered' AND payload->>'username' = $1`, [user.username])).rowCount).toBe(1);
  });

  it('answers reads and logins 503 while the users table is locked, and serves them again at once when it is released', async () => {
    const member = await signUp(stack.url, {}, { verified: false });
    const held = await lock('users');
    let me;
    let login;
    try {
      [me, login] = await Promise.all([
        timed(() => get(`${stack.url}/api/auth/me`, bearer(member.token))),
        timed(() => post(`${stack.url}/api/auth/login`, { login: member.username, password: member.password })),
      ]);
    } finally {
      await held.release();
    }
    for (const answer of [me, login]) {
      expect(answer.status).toBe(503);
      expect(answer.body.detail).toMatch(BUSY);
      expect(answer.ms).toBeLessThan(STATEMENT_TIMEOUT_MS + SLACK_MS);
    }
    // The pool's connections survived their cancelled statements.
    await eventually(async () => expect((await get(`${stack.url}/api/auth/me`, bearer(member.token))).status).toBe(200));
    expect((await post(`${stack.url}/api/auth/login`, { login: member.username, password: member.password })).status).toBe(200);
  });
});
