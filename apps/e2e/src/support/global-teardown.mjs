// Stops the processes the journeys ran against and drops their database and event stream.
import pg from 'pg';
import { connect } from 'nats';

export default async function globalTeardown() {
  const started = globalThis.__E2E_SYSTEM__;
  if (!started) return;
  await started.system.stop();
  const nc = await connect({ servers: started.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  await (await nc.jetstreamManager()).streams.delete(started.env.EVENTS_STREAM).catch(() => false);
  await nc.close();
  const url = new URL(started.env.DATABASE_URL);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
}
