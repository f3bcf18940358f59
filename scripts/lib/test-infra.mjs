// The integration tests' infrastructure, chosen by one switch (TEST_INFRA, ADR 0054): PostgreSQL, Redis, NATS with
// JetStream and MinIO started through testcontainers when a Docker engine answers (a laptop with Docker), else the
// services the environment names (these machines and CI).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Images the containers run, pinned by version (the production majors: PostgreSQL 15, Redis 7, NATS 2.10). */
export const TEST_IMAGES = {
  postgres: 'postgres:15.18-alpine',
  redis: 'redis:7.4.11-alpine',
  nats: 'nats:2.10.29-alpine',
  // MinIO publishes its images on quay.io.
  minio: 'quay.io/minio/minio:RELEASE.2025-09-07T16-13-09Z',
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
export function testContainers(tc, secrets = { postgres: randomBytes(12).toString('hex'), minioUser: 'test-minio', minio: randomBytes(16).toString('hex') }) {
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
      name: 'MinIO',
      image: TEST_IMAGES.minio,
      container: new GenericContainer(TEST_IMAGES.minio)
        .withCommand(['server', '/data'])
        .withEnvironment({ MINIO_ROOT_USER: secrets.minioUser, MINIO_ROOT_PASSWORD: secrets.minio })
        .withExposedPorts(9000)
        .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000)),
      env: (started) => ({ TEST_S3_ENDPOINT: url('http', started, 9000), TEST_S3_ACCESS_KEY: secrets.minioUser, TEST_S3_SECRET_KEY: secrets.minio }),
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
