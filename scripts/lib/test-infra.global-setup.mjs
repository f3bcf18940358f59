// Integration tests' global setup: one switch, TEST_INFRA (ADR 0054), says where PostgreSQL, Redis, NATS and S3 come
// from. Containers export their URLs here, before Jest starts its workers, so every test file reads them from the
// environment just as it reads the machine's own services.
import { chooseInfra, loadTestcontainers, startTestContainers } from './test-infra.mjs';

export default async function globalSetup() {
  const started = Date.now();
  const { infra, reason } = await chooseInfra(process.env.TEST_INFRA);
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (infra === 'env') {
    console.log(`\nIntegration infrastructure: the environment's services (${reason}; chosen in ${took})`);
    return;
  }
  console.log(`\nIntegration infrastructure: containers (${reason}); starting PostgreSQL, Redis, NATS and S3`);
  const containers = await startTestContainers(await loadTestcontainers(), (line) => console.log(`  ${line}`));
  globalThis.__TEST_CONTAINERS__ = containers;
  Object.assign(process.env, containers.env);
}
