import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { generateSigningKeys } from '../identity/jwt-keys';
import { generateBusKeys } from '../bus/bus-keys';
import { BusIdentity } from '../bus/bus-identity';
import { BusKeys, BusSigner, parseBusPublicKeys, parseBusSigningKey } from '../bus/bus-keys';
import { natsTarget } from '../nats/nats-target';
import { callersOf, type EventParty } from '@market/contracts';

/** Environment for one test file: the machine's NATS and Redis, with its own event stream and queue prefix. */
export function isolatedEnv(databaseUrl: string): Record<string, string> {
  const tag = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const bus = generateBusKeys();
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
    // Bus keys of this file's own (D25): every process's public keys, and their private keys for busEnvOf to hand out.
    BUS_PUBLIC_KEYS: bus.publicKeys,
    BUS_TEST_SIGNING_KEYS: JSON.stringify(bus.signingKeys),
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

/** `env` with the bus key of `party` (from isolatedEnv's keys) as its BUS_SIGNING_KEY: the environment of that process. */
export function busEnvOf(env: Record<string, string>, party: EventParty): Record<string, string> {
  const keys = JSON.parse(env.BUS_TEST_SIGNING_KEYS ?? '{}') as Partial<Record<EventParty, string>>;
  const key = keys[party];
  if (!key) throw new Error('busEnvOf: the environment has no test bus keys (start from isolatedEnv)');
  return { ...env, BUS_SIGNING_KEY: key };
}

/** A bus identity holding every process's test key: a test's client signs each request as a process allowed to send it. */
export function testBusIdentity(env: Record<string, string>, as: EventParty = 'gateway'): BusIdentity {
  // One identity per key set and process: each keeps the shared keys it has worked out (a helper may run per message).
  const key = `${as}\n${env.BUS_TEST_SIGNING_KEYS ?? ''}\n${env.BUS_PUBLIC_KEYS}`;
  let identity = testIdentities.get(key);
  if (!identity) testIdentities.set(key, (identity = keyringIdentity(JSON.parse(env.BUS_TEST_SIGNING_KEYS ?? '{}') as Record<EventParty, string>, env.BUS_PUBLIC_KEYS, as)));
  return identity;
}
const testIdentities = new Map<string, BusIdentity>();

/**
 * An identity holding every process's key (tests, standing in for several processes): a request is signed by `as` when
 * it may send it (the gateway by default), else by the first process allowed to call the subject.
 */
export function keyringIdentity(signingKeys: Readonly<Record<EventParty, string>>, publicKeys: string, as: EventParty = 'gateway'): BusIdentity {
  const keys = new BusKeys(parseBusPublicKeys(publicKeys));
  const signers = new Map<EventParty, BusSigner>(
    (Object.entries(signingKeys) as Array<[EventParty, string]>).map(([party, seed]) => [party, new BusSigner(party, parseBusSigningKey(seed))]),
  );
  const own = signers.get(as);
  if (!own) throw new Error(`No signing key for ${as}`);
  return new BusIdentity(own, keys, (subject) => {
    const allowed = callersOf(subject);
    const party = allowed.includes(as) ? as : allowed.find((caller) => signers.has(caller));
    return (party && signers.get(party)) || own;
  });
}
