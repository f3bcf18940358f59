// Starts the whole marketplace once for every journey: real processes, a fresh database, isolated events.
import { startSystem } from '../../../../scripts/lib/system.mjs';

export default async function globalSetup() {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const server = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  server.pathname = `/e2e_${tag}`;
  const port = Number(process.env.E2E_PORT ?? 3900);
  const env = {
    ...process.env,
    DATABASE_URL: server.toString(),
    PORT: String(port),
    HEALTH_PORT_BASE: String(port),
    EVENTS_STREAM: `E2E_${tag}`,
    EVENTS_PREFIX: `e2e_${tag}`,
    QUEUE_PREFIX: `e2e_${tag}`,
    NATS_SUBJECT_PREFIX: `rpc_e2e_${tag}.`,
    REDIS_KEY_PREFIX: `e2e_${tag}:`,
    DATA_DIR: 'tmp/e2e-data',
    ADMIN_EMAIL: 'admin@e2e.example.com',
    ADMIN_PASSWORD: 'e2e-admin-password',
    RATE_LIMIT_SCALE: '20',
  };
  const lines = [];
  const system = await startSystem({ env, quiet: true, log: (line) => lines.push(line) });
  globalThis.__E2E_SYSTEM__ = { system, env };
  process.env.E2E_BASE_URL = system.url;
  process.env.E2E_ADMIN_EMAIL = env.ADMIN_EMAIL;
  process.env.E2E_ADMIN_PASSWORD = env.ADMIN_PASSWORD;
}
