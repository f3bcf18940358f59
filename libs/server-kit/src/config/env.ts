import { z } from 'zod';
import { parsePublicKeys } from '../identity/jwt-keys';
import { parseBusPublicKeys, parseBusSigningKey } from '../bus/bus-keys';
import { natsTarget } from '../nats/nats-target';
import { secretProblem } from './secrets';
import { eventLimitsEnv, retentionEnv } from './growth-env';
import { databaseEnv } from './database-env';

/** A configuration value that failed validation; names the variable. */
export class ConfigError extends Error {
  constructor(readonly variable: string, reason: string) {
    super(`Invalid configuration: ${variable}: ${reason}`);
  }
}

/** Parses environment variables with a schema, throwing a ConfigError that names the first bad variable. */
export function parseEnvOrThrow<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const variable = String(issue.path[0] ?? 'environment');
  throw new ConfigError(variable, env[variable] === undefined ? 'is required but not set' : issue.message);
}

/** Parses environment variables once at start; a bad value stops the process with one line naming the variable. */
export function parseEnv<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  try {
    return parseEnvOrThrow(shape, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const url = (protocols: string[]) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a ${protocols.join(' or ')}// URL`);

// 0 asks the OS for a free port (tests).
const port = z.coerce.number().int().min(0).max(65535);

/**
 * NATS_URL: a nats:// or tls:// URL, whose password (each process's own NATS user, ADR 0035) is held to the secrets
 * rule (ADR 0031); the problem never repeats it.
 */
const natsUrl = url(['nats:', 'tls:']).superRefine((value, ctx) => {
  const password = natsTarget(value).pass;
  const problem = password ? secretProblem('NATS_URL', password) : null;
  if (problem) ctx.addIssue({ code: 'custom', message: `its password ${problem}` });
});

/** JWT_PUBLIC_KEYS: the JWKS of the keys access tokens may be signed with (ADR 0030), checked at start. */
const publicKeys = z.string().superRefine((value, ctx) => {
  try {
    parsePublicKeys(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/** BUS_SIGNING_KEY (or BUS_PREVIOUS_SIGNING_KEY): an Ed25519 key for the bus (D25), held to the secrets rule and read at start. */
const signingKey = (variable: string) => z.string().superRefine((value, ctx) => {
  const problem = secretProblem(variable, value);
  if (problem) return void ctx.addIssue({ code: 'custom', message: problem });
  try {
    parseBusSigningKey(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/** BUS_PUBLIC_KEYS: every process's public bus keys (D25), checked at start. */
const busPublicKeys = z.string().superRefine((value, ctx) => {
  try {
    parseBusPublicKeys(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/** Variables every backend process reads. */
export const commonEnv = {
  NATS_URL: natsUrl.default('nats://127.0.0.1:4222'),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  EVENTS_STREAM: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('EVENTS'),
  EVENTS_PREFIX: z.string().regex(/^[a-z0-9_]+$/, 'lower-case letters, digits and _ only').default('events'),
  // Puts every request-reply subject under a prefix, so stacks sharing one NATS stay apart (ends with '.').
  NATS_SUBJECT_PREFIX: z.string().regex(/^([A-Za-z0-9_-]+\.)*$/, "dot-separated tokens ending with '.'").default(''),
  // Namespaces this deployment's Redis keys (sessions, rate limits); tests give each file its own.
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_:-]*$/, 'letters, digits, _, : and - only').default(''),
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('bull'),
  // Checks every answer received over NATS against its contract (tests turn it on; ADR 0028).
  CHECK_CONTRACTS: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  // Every process verifies access tokens itself with these public keys; only auth-service holds the private key.
  JWT_PUBLIC_KEYS: publicKeys,
  // Every request, reply and event on the bus is signed by its sender and checked against contracts (D25, ADR 0065):
  // this process's own key, and every process's public keys (one or two each: two while one rotates).
  BUS_SIGNING_KEY: signingKey('BUS_SIGNING_KEY'),
  // During a rotation, the key this process held before: it signs nothing, and opens what was sealed for it and is
  // still on its way (the stream, an outbox) once BUS_SIGNING_KEY is the new one (ADR 0066, docs/operations.md).
  BUS_PREVIOUS_SIGNING_KEY: signingKey('BUS_PREVIOUS_SIGNING_KEY').optional(),
  BUS_PUBLIC_KEYS: busPublicKeys,
  // `off` skips the signatures' and seals' cryptography, for `npm run bench:bids` to weigh it (ADR 0066): refused
  // outside NODE_ENV=test, and every process of a system must say the same.
  BUS_CHECKS: z.enum(['on', 'off']).default('on'),
  // On SIGTERM a process first reports not ready for this long (so load balancers and NATS peers stop sending), then
  // stops taking work and waits up to DRAIN_TIMEOUT_MS for what it holds (ADR 0050).
  // Runs on a NATS or Redis that lets anyone in without credentials, outside tests (D25, ADR 0065): never by default.
  ALLOW_OPEN_INFRA: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  // Where a service's health and metrics port and the gateway's metrics port listen: this machine only, unless a
  // deployment's probes and scrapers need the pod's or container's address (k8s and compose set 0.0.0.0).
  METRICS_HOST: z.string().min(1).max(255).default('127.0.0.1'),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  // Stream limits and delivery limits (ADR 0046).
  ...eventLimitsEnv,
};

/** Variables of a service that owns a database schema and answers health checks. */
export const serviceEnv = {
  ...commonEnv,
  DATABASE_URL: url(['postgres:', 'postgresql:']).default('postgres://postgres@127.0.0.1:5432/marketplace'),
  HEALTH_PORT: port.optional(),
  // true: a start creates the schema and applies pending migrations (npm start, tests, a single process). false: the
  // separate migrate step (`main.js migrate`, a Kubernetes Job) does, and a start waits until it has (ADR 0053).
  MIGRATIONS_ON_START: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  // Retention of tables that only grow (ADR 0046).
  ...retentionEnv,
  ...databaseEnv,
  // How long a scrape reuses the last reading of a gauge that queries PostgreSQL, JetStream or Redis (ADR 0048): how
  // often anyone scrapes, those reads run at most this often. Below Prometheus's 15 s interval, so it sees fresh values.
  METRICS_READ_REUSE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
};

export const portSchema = port;
export const urlSchema = url;
export type CommonConfig = z.infer<z.ZodObject<typeof commonEnv>>;
export type ServiceConfig = z.infer<z.ZodObject<typeof serviceEnv>>;

// The first token of every request-reply subject when no prefix is set (see RPC in contracts).
const RPC_ROOTS = ['auth', 'listings', 'bidding', 'billing', 'admin', 'notifications'];

/** Request-reply subjects must stay out of the events stream's subjects, or JetStream would answer them. */
export function checkSubjectSpaces(config: Pick<CommonConfig, 'NATS_SUBJECT_PREFIX' | 'EVENTS_PREFIX'>): void {
  const rpc = config.NATS_SUBJECT_PREFIX;
  const events = `${config.EVENTS_PREFIX}.`;
  const overlaps = rpc === '' ? RPC_ROOTS.includes(config.EVENTS_PREFIX) : rpc.startsWith(events) || events.startsWith(rpc);
  if (overlaps) throw new ConfigError('NATS_SUBJECT_PREFIX', `must not overlap EVENTS_PREFIX (${config.EVENTS_PREFIX})`);
}
