import type { INestApplication } from '@nestjs/common';
import { createServiceApp, parseEnvOrThrow } from '@market/server-kit';
import { baseUrl, closeAll, createTestDatabase, deleteStream, isolatedEnv, type TestDatabase } from '@market/server-kit/testing';
import { authEnv } from '../../../auth-service/src/auth.config';
import { authAppModule } from '../../../auth-service/src/app.module';
import { gatewayEnv } from '../gateway.config';
import { createGateway } from '../create-gateway';

export interface Stack {
  url: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts a gateway, and optionally the auth service, on a fresh database with isolated events. */
export async function startStack(options: { auth?: boolean; env?: Record<string, string> } = {}): Promise<Stack> {
  const db: TestDatabase = await createTestDatabase('gw');
  const env = { ...isolatedEnv(db.url), ...options.env };
  let auth: INestApplication | undefined;
  let gateway: INestApplication | undefined;
  try {
    if (options.auth !== false) {
      const config = parseEnvOrThrow(authEnv, env);
      auth = await createServiceApp({ service: 'auth-service', module: authAppModule(config), config, defaultHealthPort: 0, healthPort: 0 });
    }
    gateway = await createGateway(parseEnvOrThrow(gatewayEnv, { ...env, PORT: '0', HOST: '127.0.0.1' }));
    await gateway.listen(0, '127.0.0.1');
  } catch (error) {
    await closeAll(auth, gateway);
    await db.drop();
    throw error;
  }
  return {
    url: await baseUrl(gateway),
    env,
    stop: async () => {
      await closeAll(auth, gateway);
      await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
      await db.drop();
    },
  };
}

// Tests read whatever JSON came back; assertions, not types, check its shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** POSTs JSON (or a raw string) and returns status, headers and parsed body. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json().catch(() => null)) as Json };
}

/** GETs and returns status, headers and parsed body. */
export async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json().catch(() => null)) as Json };
}
