import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, eventually, isolatedEnv, startSmtpSink, type TestDatabase } from '@market/server-kit/testing';
import { bearer, get, post } from '../support/start-stack';
import { latestLink } from '../support/mailbox';

const ROOT = resolve(__dirname, '../../../..');
const secret = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;

/** True when nothing listens on the port (loopback). */
const portFree = (port: number) =>
  new Promise<boolean>((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });

/** A gateway port whose next six ports (the services' health ports under npm start) are free too. */
async function portBlock(): Promise<number> {
  for (;;) {
    // Below the kernel's ephemeral range (32768 and up), where outgoing connections of a suite running beside this one take ports.
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await Promise.all(Array.from({ length: 7 }, (_, i) => portFree(base + i)));
    if (free.every(Boolean)) return base;
  }
}

/**
 * `npm start` in production mode with known secrets, driven through a registration and a password reset: no log file it
 * writes holds the admin password, the SMTP password, a user's password or a one-time token, and only their owner may
 * read the files (ADR 0031).
 */
describe('secrets never reach the logs of a run', () => {
  const secrets = {
    ADMIN_PASSWORD: secret('admin'),
    SMTP_PASSWORD: secret('smtp'),
  };
  const member = { username: `logscan_${randomBytes(3).toString('hex')}`, password: secret('member'), newPassword: secret('renewed'), wrongGuess: secret('guess') };
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let db: TestDatabase;
  let env: Record<string, string>;
  let dataDir: string;
  let launcher: ChildProcess;
  let launcherOutput = '';
  let url: string;
  const tokens: string[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    db = await createTestDatabase('logscan');
    dataDir = mkdtempSync(join(tmpdir(), 'logscan-'));
    const port = await portBlock();
    url = `http://localhost:${port}`;
    env = {
      ...isolatedEnv(db.url),
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      PAYMENTS_PROVIDER: 'sandbox',
      PORT: String(port),
      HEALTH_PORT_BASE: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      ADMIN_EMAIL: 'logscan-admin@example.com',
      ADMIN_PASSWORD: secrets.ADMIN_PASSWORD,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SMTP_USERNAME: 'site-market-mailer',
      SMTP_PASSWORD: secrets.SMTP_PASSWORD,
      // The apps are built (npm test builds first); a rebuild here would rewrite every dist while other tests load them.
      SKIP_BUILD: 'true',
      // No servers given: outside tests npm start never uses the machine's open Redis and NATS (D25), it starts its own
      // with a user per process under DATA_DIR.
      REDIS_URL: '',
      NATS_URL: '',
    };
    launcher = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Ready when it prints its URL; an early exit fails at once with what it said.
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`npm start was not ready within 150 s:\n${launcherOutput}`)), 150_000);
      const onOutput = (chunk: Buffer) => {
        launcherOutput += chunk.toString();
        if (launcherOutput.includes(`Site Market is running at ${url}`)) {
          clearTimeout(timer);
          ready();
        }
      };
      launcher.stdout?.on('data', onOutput);
      launcher.stderr?.on('data', onOutput);
      launcher.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`npm start exited with ${code}:\n${launcherOutput}`));
      });
    });
  }, 180_000);

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      launcher.kill('SIGKILL');
    }
    await sink?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps passwords, SMTP credentials and reset tokens out of every log file, which only their owner may read', async () => {
    const api = (path: string) => `${url}/api${path}`;
    const email = `${member.username}@example.com`;
    expect((await post(api('/auth/login'), { login: env.ADMIN_EMAIL, password: secrets.ADMIN_PASSWORD })).status).toBe(200);
    expect((await post(api('/auth/register'), { username: member.username, email, password: member.password, age_confirmed: true })).status).toBe(201);
    expect((await post(api('/auth/login'), { login: member.username, password: member.wrongGuess })).status).toBe(401);
    expect((await post(api('/auth/forgot-password'), { email })).status).toBe(200);

    const verify = await eventually(async () => latestLink(sink.messages, email, '/verify-email') ?? Promise.reject(new Error('no verification mail yet')), 20_000);
    const reset = await eventually(async () => latestLink(sink.messages, email, '/reset-password') ?? Promise.reject(new Error('no reset mail yet')), 20_000);
    tokens.push(verify.token, reset.token);
    expect((await post(api('/auth/reset-password'), { token: reset.token, new_password: member.newPassword })).status).toBe(200);
    expect((await post(api(`/auth/verify-email?token=${encodeURIComponent(verify.token)}`), undefined)).status).toBe(200);
    const login = await post(api('/auth/login'), { login: member.username, password: member.newPassword });
    expect(login.status).toBe(200);
    expect((await get(api('/auth/me'), bearer(login.body.access_token))).body.email_verified).toBe(true);
    // The mail went out with the SMTP password: it was in use, not just set.
    expect(sink.logins).toContainEqual({ user: 'site-market-mailer', pass: secrets.SMTP_PASSWORD });
    // Its own Redis and NATS, each with a user per process: the machine's open ones were not used (D25).
    expect(launcherOutput).toMatch(/Redis: started redis-server on 127\.0\.0\.1:\d+ .*with a user per process/);
    expect(launcherOutput).toMatch(/NATS: started nats-server on 127\.0\.0\.1:\d+ .*with a user per process/);
    // Production with PAYMENTS_PROVIDER=sandbox said so explicitly; every page shows the banner (ADR 0033).
    expect((await get(api('/site'))).body).toEqual({ payments: { provider: 'sandbox', test_mode: true } });

    const exited = new Promise<number | null>((done) => launcher.once('exit', (code) => done(code)));
    launcher.kill('SIGINT');
    expect(await exited).toBe(0);

    const logDir = join(dataDir, 'logs');
    const files = readdirSync(logDir);
    // The nats-server npm start ran writes its log beside the services' (redis-server logs nothing at this level).
    expect(files.sort()).toEqual(
      ['admin-service', 'auth-service', 'bidding-service', 'billing-service', 'gateway', 'listings-service', 'nats-server', 'notifications-service'].map((name) => `${name}.log`),
    );
    // Every process's bus signing key too (D25): npm start keeps them under data/, owner-only.
    const busKeysFile = join(dataDir, 'bus-keys.json');
    expect((statSync(busKeysFile).mode & 0o777).toString(8)).toBe('600');
    const busSigningKeys = (JSON.parse(readFileSync(busKeysFile, 'utf8')) as { signingKeys: Record<string, string> }).signingKeys;
    expect(Object.keys(busSigningKeys)).toHaveLength(7);
    // And the passwords of its Redis and NATS users.
    const serverPasswords = ['redis-passwords.json', 'nats-passwords.json'].flatMap((file) =>
      Object.entries(JSON.parse(readFileSync(join(dataDir, file), 'utf8')) as Record<string, string>).map(([user, password]): [string, string] => [`${file}:${user}`, password]),
    );
    expect(serverPasswords.length).toBe(16);
    const forbidden: Record<string, string> = {
      ...secrets,
      ...Object.fromEntries(serverPasswords),
      ...Object.fromEntries(Object.entries(busSigningKeys).map(([party, key]) => [`bus_key_${party}`, key])),
      member_password: member.password,
      new_password: member.newPassword,
      wrong_guess: member.wrongGuess,
      verify_token: tokens[0],
      reset_token: tokens[1],
    };
    let lines = 0;
    for (const file of files) {
      const path = join(logDir, file);
      expect({ file, mode: (statSync(path).mode & 0o777).toString(8) }).toEqual({ file, mode: '600' });
      const text = readFileSync(path, 'utf8');
      lines += text.split('\n').length;
      for (const [name, value] of Object.entries(forbidden)) {
        expect({ file, name, found: text.includes(value) || text.includes(encodeURIComponent(value)) }).toEqual({ file, name, found: false });
      }
    }
    // Debug logging was on and the emails were logged as sent: the scan read real output.
    expect(lines).toBeGreaterThan(50);
    const mailLog = readFileSync(join(logDir, 'notifications-service.log'), 'utf8');
    expect(mailLog).toContain('"msg":"Email sent"');
    expect(mailLog).toContain(`"to":"${email}"`);
  }, 120_000);
});
