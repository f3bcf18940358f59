import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { generateSigningKeys } from '../identity/jwt-keys';
import { natsTarget } from '../nats/nats-target';

/** Environment for one test file: the machine's NATS and Redis, with its own event stream and queue prefix. */
export function isolatedEnv(databaseUrl: string): Record<string, string> {
  const tag = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return {
    DATABASE_URL: databaseUrl,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    EVENTS_STREAM: `IT_${tag}`,
    EVENTS_PREFIX: `it_${tag}`,
    QUEUE_PREFIX: `it_${tag}`,
    REDIS_KEY_PREFIX: `it_${tag}:`,
    NATS_SUBJECT_PREFIX: `rpc_${tag}.`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    // A signing key pair of this file's own: auth-service signs with it, every process verifies with it (ADR 0030).
    ...generateSigningKeys(),
    // Every answer over NATS is checked against its contract in tests (ADR 0028).
    CHECK_CONTRACTS: 'true',
  };
}

/** Deletes a test's JetStream stream (and its consumers). */
export async function deleteStream(natsUrl: string, stream: string): Promise<void> {
  const nc = await connect(natsTarget(natsUrl));
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(stream).catch(() => false);
  } finally {
    await nc.close();
  }
}
