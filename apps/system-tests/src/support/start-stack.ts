import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule, INestApplication } from '@nestjs/common';
import { connect, type Subscription } from 'nats';
import { createServiceApp, domainProofEnv, natsTarget, parseEnvOrThrow, serviceEnv } from '@market/server-kit';
import type { RegisterRequest, ServiceName } from '@market/contracts';
import { baseUrl, buildUser, busEnvOf, closeAll, createTestDatabase, deleteStream, isolatedEnv, openedEvent, type TestDatabase } from '@market/server-kit/testing';
import { authEnv } from '../../../auth-service/src/auth.config';
import { authAppModule } from '../../../auth-service/src/app.module';
import { notificationsEnv } from '../../../notifications-service/src/notifications.config';
import { notificationsAppModule } from '../../../notifications-service/src/app.module';
import { adminAppModule } from '../../../admin-service/src/app.module';
import { listingsAppModule } from '../../../listings-service/src/app.module';
import { listingsEnv } from '../../../listings-service/src/listings.config';
import { billingAppModule } from '../../../billing-service/src/app.module';
import { biddingAppModule } from '../../../bidding-service/src/app.module';
import { biddingEnv } from '../../../bidding-service/src/bidding.config';
import { gatewayEnv } from '../../../gateway/src/gateway.config';
import { createGateway } from '../../../gateway/src/create-gateway';

type ServiceKey = 'auth' | 'notifications' | 'admin' | 'listings' | 'billing' | 'bidding';

const SERVICES: Record<ServiceKey, { name: ServiceName; module: (env: Record<string, string>) => { module: DynamicModule; config: ReturnType<typeof parseEnvOrThrow<typeof serviceEnv>> } }> = {
  auth: { name: 'auth-service', module: (env) => { const config = parseEnvOrThrow(authEnv, env); return { module: authAppModule(config), config }; } },
  notifications: {
    name: 'notifications-service',
    module: (env) => { const config = parseEnvOrThrow(notificationsEnv, env); return { module: notificationsAppModule(config), config }; },
  },
  admin: { name: 'admin-service', module: (env) => { const config = parseEnvOrThrow(serviceEnv, env); return { module: adminAppModule(config), config }; } },
  listings: { name: 'listings-service', module: (env) => { const config = parseEnvOrThrow({ ...serviceEnv, ...domainProofEnv, ...listingsEnv }, env); return { module: listingsAppModule(config), config }; } },
  billing: { name: 'billing-service', module: (env) => { const config = parseEnvOrThrow({ ...serviceEnv, ...domainProofEnv }, env); return { module: billingAppModule(config), config }; } },
  bidding: { name: 'bidding-service', module: (env) => { const config = parseEnvOrThrow(biddingEnv, env); return { module: biddingAppModule(config), config }; } },
};

export interface Stack {
  /** The first gateway's base URL. */
  url: string;
  /** Every gateway's base URL. */
  urls: string[];
  env: Record<string, string>;
  db: TestDatabase;
  /** The first (or only) instance of a started service. */
  service(key: ServiceKey): INestApplication;
  /** Every instance of a started service, in start order (see `replicas`). */
  services(key: ServiceKey): INestApplication[];
  /** Every gateway, in start order (`urls[i]` is `gateways[i]`'s). */
  gateways: INestApplication[];
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Services to start (default: auth). */
  services?: ServiceKey[];
  /** How many instances of a started service to run (default 1 each): replicas share its NATS queue group. */
  replicas?: Partial<Record<ServiceKey, number>>;
  /** How many gateways (default 1). */
  gateways?: number;
  env?: Record<string, string>;
  /** Each process's own NATS_URL (its NATS user, ADR 0035); a process not named uses `env`'s. */
  natsUrls?: Partial<Record<ServiceName | 'gateway', string>>;
}

// Each running stack's variables by gateway URL, so signUp(url) can listen to that stack's events.
const stackEnvs = new Map<string, Record<string, string>>();

/** Starts gateways and services in-process on a fresh database with isolated events (services default: auth). */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const keys = options.services ?? ['auth'];
  for (const [key, count] of Object.entries(options.replicas ?? {}) as Array<[ServiceKey, number]>) {
    if (!keys.includes(key)) throw new Error(`replicas names ${key}, which is not among the started services`);
    if (!Number.isInteger(count) || count < 1) throw new Error(`replicas.${key} must be a whole number from 1`);
  }
  const db = await createTestDatabase('gw');
  // Screenshots go to a directory of this stack's own, never into the checkout's data/.
  const uploads = mkdtempSync(join(tmpdir(), 'stack-uploads-'));
  const env: Record<string, string> = { ...isolatedEnv(db.url), UPLOADS_DIR: uploads, ...options.env };
  // Each process signs with its own bus key (D25) and connects as its own NATS user when given one (ADR 0035).
  const envOf = (name: ServiceName | 'gateway') => ({ ...busEnvOf(env, name), NATS_URL: options.natsUrls?.[name] ?? env.NATS_URL });
  const services = new Map<ServiceKey, INestApplication[]>();
  const started: INestApplication[] = [];
  const gateways: INestApplication[] = [];
  try {
    for (const key of keys) {
      const instances: INestApplication[] = [];
      services.set(key, instances);
      for (let i = 0; i < (options.replicas?.[key] ?? 1); i += 1) {
        const { module, config } = SERVICES[key].module(envOf(SERVICES[key].name));
        const app = await createServiceApp({ service: SERVICES[key].name, module, config, defaultHealthPort: 0, healthPort: 0 });
        instances.push(app);
        started.push(app);
      }
    }
    for (let i = 0; i < (options.gateways ?? 1); i += 1) {
      const gateway = await createGateway(parseEnvOrThrow(gatewayEnv, { ...envOf('gateway'), PORT: '0', HOST: '127.0.0.1' }));
      await gateway.listen(0, '127.0.0.1');
      gateways.push(gateway);
    }
  } catch (error) {
    await closeAll(...started, ...gateways);
    await db.drop();
    rmSync(uploads, { recursive: true, force: true });
    throw error;
  }
  const urls = await Promise.all(gateways.map(baseUrl));
  for (const url of urls) stackEnvs.set(url, env);
  const instancesOf = (key: ServiceKey) => {
    const instances = services.get(key);
    if (!instances?.length) throw new Error(`${key} was not started`);
    return instances;
  };
  return {
    url: urls[0],
    urls,
    env,
    db,
    gateways,
    service: (key) => instancesOf(key)[0],
    services: (key) => [...instancesOf(key)],
    stop: async () => {
      for (const url of urls) stackEnvs.delete(url);
      await closeAll(...started, ...gateways);
      await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
      await db.drop();
      rmSync(uploads, { recursive: true, force: true });
    },
  };
}

// Tests read whatever JSON came back; assertions, not types, check its shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** Sends a request and returns status, headers and parsed body. */
export async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json().catch(() => null)) as Json };
}

/** POSTs JSON (or a raw string). */
export const post = (url: string, body: unknown, headers: Record<string, string> = {}) => call('POST', url, body, headers);

/**
 * POSTs to a rate-limited route (signing in, the contact form) where the refusal is not what the test is about: its
 * quota is counted in Redis within 250 ms or refused with a 503 `unavailable` (ADR 0044), which a loaded CI machine
 * sometimes is; the test asks again until Redis has answered (at most 10 s). A refusal stores nothing, so asking again
 * is safe. The refusal itself is the subject of the Redis outage tests.
 */
export async function postCounted(url: string, body: unknown, headers: Record<string, string> = {}) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await post(url, body, headers);
    if (answer.status !== 503 || answer.body?.code !== 'unavailable' || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** GETs. */
export const get = (url: string, headers: Record<string, string> = {}) => call('GET', url, undefined, headers);

/** The Authorization header of a token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The one-time token of the first user.verification_requested event for a user, as the emailing consumer reads it:
 * sealed for notifications-service, opened with its test key (ADR 0066).
 */
async function verificationToken(env: Record<string, string>, requests: Subscription, userId: string, timeoutMs = 20_000): Promise<string> {
  const timer = setTimeout(() => requests.unsubscribe(), timeoutMs);
  try {
    for await (const message of requests) {
      const event = await openedEvent<'user.verification_requested'>(env, JSON.parse(message.string()));
      if (event.payload.user_id === userId) return event.payload.token;
    }
  } finally {
    clearTimeout(timer);
  }
  throw new Error(`No user.verification_requested event for ${userId} within ${timeoutMs} ms`);
}

/**
 * A signed-in member asks for a new verification link (POST /api/auth/resend-verification, what the web offers) and
 * uses it: the token of the event that emails it goes to POST /api/auth/verify-email. Fails loudly if a step is refused.
 */
export async function verifyByResend(baseUrl: string, user: { id: string; token: string }): Promise<void> {
  const env = stackEnvs.get(baseUrl);
  if (!env) throw new Error(`verifyByResend: ${baseUrl} is not a running stack's gateway`);
  const nc = await connect({ ...natsTarget(env.NATS_URL), name: 'test-verification-mailbox' });
  try {
    const requests = nc.subscribe(`${env.EVENTS_PREFIX}.user.verification_requested`);
    await nc.flush();
    const resent = await post(`${baseUrl}/api/auth/resend-verification`, undefined, bearer(user.token));
    if (resent.status !== 200) throw new Error(`resend-verification: ${resent.status} ${JSON.stringify(resent.body)}`);
    const token = await verificationToken(env, requests, user.id);
    const verified = await post(`${baseUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}`, undefined);
    if (verified.status !== 200) throw new Error(`verify-email: ${verified.status} ${JSON.stringify(verified.body)}`);
  } finally {
    await nc.close();
  }
}

/**
 * Registers a fresh user (buildUser with overrides) through the gateway, verifies their email and logs in; fails loudly
 * if any step is refused. The email is verified the way a member does it (ADR 0037): the token of the verification
 * event (what the email carries) is sent to POST /api/auth/verify-email. `verified: false` leaves it unverified.
 */
export async function signUp(baseUrl: string, overrides: Partial<RegisterRequest> = {}, options: { verified?: boolean } = {}) {
  const user = buildUser(overrides);
  const env = stackEnvs.get(baseUrl);
  const verify = options.verified ?? true;
  if (verify && !env) throw new Error(`signUp: ${baseUrl} is not a running stack's gateway`);
  const nc = verify && env ? await connect({ ...natsTarget(env.NATS_URL), name: 'test-verification-mailbox' }) : null;
  try {
    const requests = nc && env ? nc.subscribe(`${env.EVENTS_PREFIX}.user.verification_requested`) : null;
    await nc?.flush();
    const registered = await postCounted(`${baseUrl}/api/auth/register`, user);
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
    const id = registered.body.user.id as string;
    if (requests) {
      const token = await verificationToken(env as Record<string, string>, requests, id);
      const verified = await post(`${baseUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}`, undefined);
      if (verified.status !== 200) throw new Error(`verify-email: ${verified.status} ${JSON.stringify(verified.body)}`);
    }
    const login = await postCounted(`${baseUrl}/api/auth/login`, { login: user.username, password: user.password });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
    return { ...user, id, token: login.body.access_token as string };
  } finally {
    await nc?.close();
  }
}
