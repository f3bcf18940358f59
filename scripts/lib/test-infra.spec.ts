import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error plain ESM script without type declarations
import { PROBE_TIMEOUT_MS, TEST_IMAGES, chooseInfra, probeContainerRuntime, startTestContainers, testContainers } from './test-infra.mjs';

interface Found {
  answers: boolean;
  reason: string;
}
const never = () => new Promise<Found>(() => undefined);
const refuse = () => {
  throw new Error('the probe must not run');
};

describe('chooseInfra (TEST_INFRA)', () => {
  it('takes containers or env as said, without probing', async () => {
    await expect(chooseInfra('env', { probe: refuse })).resolves.toEqual({ infra: 'env', reason: 'TEST_INFRA=env' });
    await expect(chooseInfra('containers', { probe: refuse })).resolves.toEqual({ infra: 'containers', reason: 'TEST_INFRA=containers' });
  });

  it('auto (also unset) asks the probe: containers when an engine answers, else env', async () => {
    const answers = async () => ({ answers: true, reason: 'a Docker engine answers' });
    const silent = async () => ({ answers: false, reason: 'no Docker engine answers' });
    await expect(chooseInfra('auto', { probe: answers })).resolves.toMatchObject({ infra: 'containers' });
    await expect(chooseInfra(undefined, { probe: answers })).resolves.toMatchObject({ infra: 'containers' });
    await expect(chooseInfra('', { probe: silent })).resolves.toEqual({ infra: 'env', reason: 'TEST_INFRA=auto: no Docker engine answers' });
  });

  it('settles for env when the probe never answers, soon after its deadline', async () => {
    const started = Date.now();
    await expect(chooseInfra('auto', { probe: never, timeoutMs: 200 })).resolves.toMatchObject({ infra: 'env' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses any other value', async () => {
    await expect(chooseInfra('docker', { probe: refuse })).rejects.toThrow('TEST_INFRA must be auto, containers, env (got "docker")');
  });
});

describe('probeContainerRuntime', () => {
  it('kills a detection that hangs (an engine that takes connections and never answers) at its deadline', async () => {
    const started = Date.now();
    const found = await probeContainerRuntime({ timeoutMs: 500, script: 'setInterval(() => {}, 1000)' });
    expect(found).toEqual({ answers: false, reason: 'no Docker engine answered within 0.5 s' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads the detection’s exit: 0 an engine, 3 no testcontainers, else none', async () => {
    await expect(probeContainerRuntime({ script: 'process.exit(0)' })).resolves.toMatchObject({ answers: true });
    await expect(probeContainerRuntime({ script: 'process.exit(3)' })).resolves.toEqual({ answers: false, reason: 'the testcontainers package is not installed' });
    await expect(probeContainerRuntime({ script: 'process.exit(1)' })).resolves.toEqual({ answers: false, reason: 'no Docker engine answers' });
  });

  it("answers within its deadline with testcontainers' own detection, whatever this machine has", async () => {
    const started = Date.now();
    const found = await probeContainerRuntime();
    expect(typeof found.answers).toBe('boolean');
    expect(Date.now() - started).toBeLessThan(PROBE_TIMEOUT_MS + 1000);
  }, 15_000);
});

/** A stand-in for the testcontainers module: records how each container is set up and "starts" it. */
function fakeTestcontainers(failing?: string) {
  const stopped: string[] = [];
  class GenericContainer {
    setup: Record<string, unknown> = {};
    constructor(readonly image: string) {}
    withEnvironment(environment: Record<string, string>) {
      this.setup.environment = environment;
      return this;
    }
    withCommand(command: string[]) {
      this.setup.command = command;
      return this;
    }
    withExposedPorts(...ports: number[]) {
      this.setup.ports = ports;
      return this;
    }
    withWorkingDir(dir: string) {
      this.setup.workingDir = dir;
      return this;
    }
    withTmpFs(tmpFs: Record<string, string>) {
      this.setup.tmpFs = tmpFs;
      return this;
    }
    withWaitStrategy(wait: unknown) {
      this.setup.wait = wait;
      return this;
    }
    withStartupTimeout(ms: number) {
      this.setup.startupTimeout = ms;
      return this;
    }
    async start() {
      if (this.image === failing) throw new Error(`${this.image} failed`);
      return { getHost: () => 'localhost', getMappedPort: (port: number) => port + 10_000, stop: async () => void stopped.push(this.image) };
    }
  }
  const Wait = { forLogMessage: (message: RegExp, times = 1) => ({ log: String(message), times }), forHttp: (path: string, port: number) => ({ http: path, port }) };
  return { module: { GenericContainer, Wait }, stopped };
}

describe('the containers', () => {
  it("run pinned images: PostgreSQL 15, Redis 7, NATS 2.10 with JetStream, Versity's S3 gateway as compose runs it", () => {
    const images = Object.values(TEST_IMAGES) as string[];
    for (const image of images) expect(image).toMatch(/:v?\d+(\.\d+)+(-alpine)?$/);
    expect(TEST_IMAGES).toMatchObject({ postgres: expect.stringMatching(/^postgres:15\./), redis: expect.stringMatching(/^redis:7\./), nats: expect.stringMatching(/^nats:2\.10\./) });
    // The image compose's s3 service runs (ADR 0077).
    const compose = readFileSync(join(__dirname, '../../docker-compose.yml'), 'utf8');
    expect(compose).toContain(`image: ${TEST_IMAGES.s3}\n`);
    const specs = testContainers(fakeTestcontainers().module) as { name: string; container: { image: string; setup: Record<string, unknown> } }[];
    expect(specs.map((spec) => spec.container.image)).toEqual(images);
    const nats = specs.find((spec) => spec.name === 'NATS')!;
    expect(nats.container.setup.command).toEqual(['nats-server', '-js']);
    const s3 = specs.find((spec) => spec.name === 'S3')!;
    expect(s3.container.setup.command).toBeUndefined();
    expect(s3.container.setup.environment).toMatchObject({ VGW_BACKEND: 'posix', VGW_BACKEND_ARG: '/data', VGW_HEALTH: '/health', VGW_PORT: ':9000' });
    expect(s3.container.setup.workingDir).toBe('/data');
    expect(s3.container.setup.wait).toEqual({ http: '/health', port: 9000 });
    for (const spec of specs) expect(spec.container.setup.wait).toBeDefined();
  });

  it('give the tests the URLs they read, with the run’s own credentials', async () => {
    const { env, stop } = await startTestContainers(fakeTestcontainers().module);
    expect(env).toEqual({
      TEST_DATABASE_URL: expect.stringMatching(/^postgres:\/\/postgres:[0-9a-f]{24}@localhost:15432\/test$/),
      REDIS_URL: 'redis://localhost:16379',
      NATS_URL: 'nats://localhost:14222',
      TEST_S3_ENDPOINT: 'http://localhost:19000',
      TEST_S3_ACCESS_KEY: 'test-s3',
      TEST_S3_SECRET_KEY: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    await stop();
  });

  it('stop the ones that started when one fails, and say which', async () => {
    const fake = fakeTestcontainers(TEST_IMAGES.nats);
    await expect(startTestContainers(fake.module)).rejects.toThrow(`${TEST_IMAGES.nats} failed`);
    expect(fake.stopped.sort()).toEqual([TEST_IMAGES.s3, TEST_IMAGES.postgres, TEST_IMAGES.redis].sort());
  });
});
