// Starts the whole marketplace as processes: every service, then the gateway (which serves the web app).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { providePostgres, provideServer } from './infra.mjs';
import { buildWorkspace, loadBuilt } from './build.mjs';
import { busEnv, busKeys } from './bus-keys.mjs';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * V8 flags of the processes on the browse path (ADR 0082): a 64 MB young generation, so the pages in flight are
 * collected where they die instead of copied and promoted every few dozen requests (compose and the prod overlay set
 * the same through NODE_OPTIONS).
 */
export const NODE_FLAGS = { gateway: ['--max-semi-space-size=64'], 'listings-service': ['--max-semi-space-size=64'] };

/** Services in start order, with their default health ports (offsets from HEALTH_PORT_BASE). */
export const SERVICES = [
  ['auth-service', 1],
  ['listings-service', 2],
  ['bidding-service', 3],
  ['billing-service', 4],
  ['admin-service', 5],
  ['notifications-service', 6],
];

/**
 * Access-token keys as environment values (ADR 0030): auth-service signs with JWT_PRIVATE_KEY (EC P-256, PEM), every
 * process verifies with JWT_PUBLIC_KEYS (a JWKS). With `file`, the private key is kept there (mode 0600) and reused.
 */
export function signingKeysEnv(file = null) {
  let privateKey;
  if (file && existsSync(file)) privateKey = createPrivateKey(readFileSync(file, 'utf8'));
  else {
    privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    if (file) writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  }
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return {
    JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    JWT_PUBLIC_KEYS: JSON.stringify({ keys: [{ ...jwk, use: 'sig', alg: 'ES256' }] }),
  };
}

/** A secret kept under data/ so sessions survive restarts of the embedded setup. */
function persistentSecret(dataDir, file, bytes) {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = randomBytes(bytes).toString('base64url');
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return value;
}

async function waitReady(url, timeoutMs, child, name) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}; see its log`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} was not ready at ${url} within ${timeoutMs / 1000} s`);
}

/** Human-readable echo of warnings and errors from a service's JSON log lines. */
function echoProblems(name, line, log) {
  try {
    const entry = JSON.parse(line);
    if (entry.level === 'warn' || entry.level === 'error') log(`[${name}] ${entry.level}: ${entry.msg ?? ''}`);
  } catch {
    if (line.trim()) log(`[${name}] ${line}`);
  }
}

/**
 * Starts infrastructure (found or embedded), every service and the gateway.
 * Returns the public URL, the admin account, a stop() that ends everything it started, and launchReplica(name), which
 * starts one more instance of a service (benchmarks compare one replica with two).
 */
export async function startSystem({ env = process.env, log = console.log, quiet = false } = {}) {
  const dataDir = resolve(ROOT, env.DATA_DIR ?? 'data');
  const logDir = join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  buildWorkspace(log);

  const stops = [];
  const children = [];
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      children.map(
        (child) =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const force = setTimeout(() => child.kill('SIGKILL'), 8000);
            child.once('exit', () => {
              clearTimeout(force);
              done();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    for (const stopOne of stops.reverse()) await stopOne().catch(() => {});
  };

  try {
    const postgres = await providePostgres(env, dataDir, log);
    stops.push(postgres.stop);
    const redis = await provideServer('redis', env, dataDir, log);
    stops.push(redis.stop);
    const nats = await provideServer('nats', env, dataDir, log);
    stops.push(nats.stop);

    const port = Number(env.PORT ?? 3000);
    const publicUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;
    const healthBase = Number(env.HEALTH_PORT_BASE ?? 3100);
    const admin = {
      email: env.ADMIN_EMAIL ?? 'admin@example.com',
      password: env.ADMIN_PASSWORD ?? persistentSecret(dataDir, 'admin-password', 12),
    };
    // A test stack's keys of every process stay with the test: each child gets only its own (below).
    const { BUS_TEST_SIGNING_KEYS: _testKeys, ...given } = env;
    const shared = {
      ...given,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      // Keys from the environment when both are set (a real deployment), else a pair kept under data/ (ADR 0030).
      ...(env.JWT_PRIVATE_KEY && env.JWT_PUBLIC_KEYS
        ? { JWT_PRIVATE_KEY: env.JWT_PRIVATE_KEY, JWT_PUBLIC_KEYS: env.JWT_PUBLIC_KEYS }
        : signingKeysEnv(join(dataDir, 'jwt-private-key.pem'))),
      PUBLIC_URL: publicUrl,
      // Screenshots live with the rest of this system's data (a throwaway stack's go away with it).
      UPLOADS_DIR: env.UPLOADS_DIR ?? join(dataDir, 'uploads'),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      // Verified figures come from listings-service's own Stripe and Google stand-ins, TEST MODE (ADR 0084), unless
      // the environment says otherwise (a real provider's settings win per source); never in production, which refuses it.
      VERIFICATION_SANDBOX: env.VERIFICATION_SANDBOX ?? (env.NODE_ENV === 'production' ? 'off' : 'on'),
    };
    // A bus key per process, kept under data/ (D25, ADR 0065): each process gets its own and everyone's public keys.
    const keys = busKeys(join(dataDir, 'bus-keys.json'));

    const launch = (name, script, extraEnv, healthUrl, logName = name) => {
      const out = createWriteStream(join(logDir, `${logName}.log`), { flags: 'a', mode: 0o600 }); // owner-only: logs name accounts (ADR 0031)
      // NODE_EXEC_ARGS passes flags to every process (e.g. --cpu-prof for a profile; NODE_OPTIONS refuses it).
      const execArgs = (env.NODE_EXEC_ARGS ?? '').split(' ').filter(Boolean);
      // A nats-server npm start made has a user per process (ADR 0035); a given or found one is used as it is by all.
      const natsUrl = nats.urls?.[name] ?? nats.url;
      // Likewise each process's own Redis user when npm start runs Redis (D25).
      const redisUrl = redis.urls?.[name] ?? redis.url;
      const child = spawn(process.execPath, [...execArgs, ...(NODE_FLAGS[name] ?? []), join(ROOT, script)], {
        cwd: ROOT,
        env: { ...shared, ...busEnv(keys, name), NATS_URL: natsUrl, REDIS_URL: redisUrl, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let buffered = '';
      const onData = (chunk) => {
        out.write(chunk);
        if (quiet) return;
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) echoProblems(name, line, log);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code, signal) => {
        out.end();
        if (!stopping) log(`${name} stopped unexpectedly (${signal ?? `code ${code}`}); see data/logs/${logName}.log`);
      });
      return waitReady(healthUrl, 60_000, child, name);
    };

    await Promise.all(
      SERVICES.map(([name, offset]) =>
        launch(name, `apps/${name}/dist/main.js`, { HEALTH_PORT: String(healthBase + offset) }, `http://127.0.0.1:${healthBase + offset}/readyz`),
      ),
    );
    // The gateway's metrics port follows the health ports, so stacks side by side (e2e, benchmarks) never share one (ADR 0048).
    const metricsPort = env.METRICS_PORT ?? String(healthBase + 9);
    await launch('gateway', 'apps/gateway/dist/main.js', { PORT: String(port), METRICS_PORT: metricsPort }, `http://127.0.0.1:${port}/readyz`);
    // Another instance of a service joins its NATS queue group (ADR 0017); health ports from offset 7 (the gateway's metrics port is 9).
    let extra = 0;
    const launchReplica = async (name) => {
      if (extra >= 2) throw new Error('launchReplica: at most two extra replicas (health port offsets 7 and 8)');
      const healthPort = healthBase + 7 + extra;
      extra += 1;
      await launch(name, `apps/${name}/dist/main.js`, { HEALTH_PORT: String(healthPort) }, `http://127.0.0.1:${healthPort}/readyz`, `${name}-${extra + 1}`);
      const child = children[children.length - 1];
      return {
        child,
        /** SIGTERM (it drains, ADR 0050) and wait for the exit. */
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      };
    };
    return { url: `http://localhost:${port}`, admin, stop, children, launchReplica };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Environment for a throwaway stack (e2e, benchmarks): its own database, stream, subjects, queues and keys. */
export function isolatedSystemEnv(label, port, base = process.env) {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const database = new URL(base.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  database.pathname = `/${label}_${tag}`;
  return {
    ...base,
    DATABASE_URL: database.toString(),
    PORT: String(port),
    HEALTH_PORT_BASE: String(port),
    EVENTS_STREAM: `${label.toUpperCase()}_${tag}`,
    EVENTS_PREFIX: `${label}_${tag}`,
    QUEUE_PREFIX: `${label}_${tag}`,
    NATS_SUBJECT_PREFIX: `rpc_${label}_${tag}.`,
    REDIS_KEY_PREFIX: `${label}_${tag}:`,
    DATA_DIR: `tmp/${label}-data`,
    ...signingKeysEnv(),
  };
}

/** Deletes Redis keys under a prefix (an isolated stack's sessions, rate limits and queues). */
async function deleteRedisKeys(redisUrl, prefix) {
  if (!prefix) return;
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Deletes the stream, the Redis keys and queues, and drops the database an isolated stack used (after stopping it). */
export async function dropIsolated(env) {
  const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  await deleteRedisKeys(redisUrl, env.REDIS_KEY_PREFIX);
  if (env.QUEUE_PREFIX) await deleteRedisKeys(redisUrl, `${env.QUEUE_PREFIX}:`);
  const { connect } = await import('nats');
  // A NATS_URL naming a user (ADR 0035) connects as that user.
  const nc = await connect(loadBuilt('libs/server-kit/dist/index.js').natsTarget(env.NATS_URL ?? 'nats://127.0.0.1:4222'));
  await (await nc.jetstreamManager()).streams.delete(env.EVENTS_STREAM).catch(() => false);
  await nc.close();
  const url = new URL(env.DATABASE_URL);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
}
