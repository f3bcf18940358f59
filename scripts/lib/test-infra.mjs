// The integration tests' infrastructure, chosen by one switch (TEST_INFRA, ADR 0054): PostgreSQL, Redis, NATS with
// JetStream and S3 (Versity's S3 gateway, ADR 0077) started through testcontainers when a Docker engine answers (a
// laptop with Docker), else the services the environment names (these machines and CI).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Images the containers run, pinned by version (the production majors: PostgreSQL 15, Redis 7, NATS 2.10). */
export const TEST_IMAGES = {
  postgres: 'postgres:15.18-alpine',
  redis: 'redis:7.4.11-alpine',
  nats: 'nats:2.10.29-alpine',
  // Versity's S3 gateway, as compose and the k8s dev overlay run it: MinIO publishes no images any more (ADR 0077).
  s3: 'versity/versitygw:v1.8.0',
};

/** How long `auto` waits for a Docker engine's answer before it settles for the environment's services. */
export const PROBE_TIMEOUT_MS = 5000;

const MODES = ['auto', 'containers', 'env'];

// testcontainers' own detection (DOCKER_HOST, ~/.testcontainers.properties, the usual sockets), in a child process:
// it has no timeout and waits forever on an engine that accepts connections but never answers, and a child can be
// killed with whatever it left open. Exit 0: an engine answered; 1: none did; 3: testcontainers is not installed.
const DETECT = `
let tc;
try { tc = require('testcontainers'); } catch { process.exit(3); }
tc.getContainerRuntimeClient().then(() => process.exit(0), () => process.exit(1));
`;

/**
 * Whether a Docker engine answers, by testcontainers' runtime detection in a child process killed after timeoutMs.
 * `script` replaces the detection (tests).
 */
export function probeContainerRuntime({ timeoutMs = PROBE_TIMEOUT_MS, cwd = process.cwd(), script = DETECT } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script], { cwd, stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ answers: false, reason: `no Docker engine answered within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ answers: false, reason: `the probe did not start (${error.message})` });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ answers: true, reason: 'a Docker engine answers' });
      else if (code === 3) resolve({ answers: false, reason: 'the testcontainers package is not installed' });
      else resolve({ answers: false, reason: 'no Docker engine answers' });
    });
  });
}

/**
 * The infrastructure a run uses: TEST_INFRA `containers` or `env` as it says; `auto` (the default) containers when
 * the probe says an engine answers within timeoutMs, else env. Throws on any other value.
 */
export async function chooseInfra(mode, { probe = probeContainerRuntime, timeoutMs = PROBE_TIMEOUT_MS } = {}) {
  const wanted = mode === undefined || mode === '' ? 'auto' : mode;
  if (!MODES.includes(wanted)) throw new Error(`TEST_INFRA must be ${MODES.join(', ')} (got "${wanted}")`);
  if (wanted !== 'auto') return { infra: wanted, reason: `TEST_INFRA=${wanted}` };
  // The probe gets the deadline, and is held to it here too, so a probe that ignores it cannot hang the run.
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ answers: false, reason: `no Docker engine answered within ${timeoutMs / 1000} s` }), timeoutMs + 500);
  });
  const found = await Promise.race([probe({ timeoutMs }), late]).finally(() => clearTimeout(timer));
  return { infra: found.answers ? 'containers' : 'env', reason: `TEST_INFRA=auto: ${found.reason}` };
}

/**
 * The four containers, not yet started, each with what its started self gives the tests. `tc` is the testcontainers
 * module; the credentials are random for each run.
 */
export function testContainers(tc, secrets = { postgres: randomBytes(12).toString('hex'), s3User: 'test-s3', s3: randomBytes(16).toString('hex') }) {
  const { GenericContainer, Wait } = tc;
  const url = (scheme, started, port, auth = '', path = '') => `${scheme}://${auth}${started.getHost()}:${started.getMappedPort(port)}${path}`;
  return [
    {
      name: 'PostgreSQL',
      image: TEST_IMAGES.postgres,
      container: new GenericContainer(TEST_IMAGES.postgres)
        .withEnvironment({ POSTGRES_PASSWORD: secrets.postgres, POSTGRES_DB: 'test' })
        .withExposedPorts(5432)
        // Throwaway data in memory; the tests open many databases and would wait on a disk.
        .withTmpFs({ '/var/lib/postgresql/data': 'rw' })
        // The image's first start runs its init scripts on a server it then restarts: ready twice means the real one.
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2)),
      env: (started) => ({ TEST_DATABASE_URL: url('postgres', started, 5432, `postgres:${secrets.postgres}@`, '/test') }),
    },
    {
      name: 'Redis',
      image: TEST_IMAGES.redis,
      container: new GenericContainer(TEST_IMAGES.redis).withExposedPorts(6379).withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/)),
      env: (started) => ({ REDIS_URL: url('redis', started, 6379) }),
    },
    {
      name: 'NATS',
      image: TEST_IMAGES.nats,
      container: new GenericContainer(TEST_IMAGES.nats)
        .withCommand(['nats-server', '-js'])
        .withExposedPorts(4222)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/)),
      env: (started) => ({ NATS_URL: url('nats', started, 4222) }),
    },
    {
      name: 'S3',
      image: TEST_IMAGES.s3,
      // Started as docker-compose.yml's s3 service is (ADR 0077): no command, so the image's entrypoint builds the
      // gateway's from VGW_*; the root key pair is the S3 pair; VGW_HEALTH adds the unauthenticated path waited on.
      container: new GenericContainer(TEST_IMAGES.s3)
        .withEnvironment({
          ROOT_ACCESS_KEY: secrets.s3User,
          ROOT_SECRET_KEY: secrets.s3,
          VGW_PORT: ':9000',
          VGW_HEALTH: '/health',
          VGW_BACKEND: 'posix',
          VGW_BACKEND_ARG: '/data',
        })
        // The posix backend needs its root to exist and is refused without user extended attributes: compose gives it a
        // volume, here Docker makes /data as the working directory in the container's own layer, which keeps them (a
        // tmpfs keeps them only on Linux 6.6 and later).
        .withWorkingDir('/data')
        .withExposedPorts(9000)
        .withWaitStrategy(Wait.forHttp('/health', 9000)),
      env: (started) => ({ TEST_S3_ENDPOINT: url('http', started, 9000), TEST_S3_ACCESS_KEY: secrets.s3User, TEST_S3_SECRET_KEY: secrets.s3 }),
    },
  ];
}

/**
 * Starts the four containers at once; resolves with the variables the tests read and a stop() for all of them.
 * A failed start stops those that did start and throws.
 */
export async function startTestContainers(tc, log = () => {}) {
  const specs = testContainers(tc);
  const results = await Promise.allSettled(
    specs.map(async (spec) => {
      const started = await spec.container.withStartupTimeout(120_000).start();
      log(`${spec.name} started (${spec.image})`);
      return started;
    }),
  );
  const running = results.filter((result) => result.status === 'fulfilled').map((result) => result.value);
  const stop = async () => {
    await Promise.allSettled(running.map((started) => started.stop()));
  };
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const env = Object.assign({}, ...specs.map((spec, i) => spec.env(results[i].value)));
  return { env, stop };
}

/** Loads testcontainers, or explains in one line how to get it. */
export async function loadTestcontainers() {
  try {
    return await import('testcontainers');
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' && error?.code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error('TEST_INFRA=containers needs the testcontainers package (a devDependency): run npm ci');
  }
}
