import type { DynamicModule, INestApplication } from '@nestjs/common';
import type { ServiceName } from '@market/contracts';
import { createServiceApp } from '../bootstrap/bootstrap-service';
import type { ServiceConfig } from '../config/env';
import { RpcClient } from '../rpc/rpc-client';
import { busEnvOf, deleteStream, isolatedEnv, testBusIdentity } from './test-env';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface ServiceUnderTest {
  app: INestApplication;
  env: Record<string, string>;
  db: TestDatabase;
  /** A NATS client that calls the service the way the gateway or another service does (answers checked). */
  rpc: RpcClient;
  stop(): Promise<void>;
}

/**
 * Starts one service in-process on a fresh database with isolated subjects and events, and a client to call it over
 * NATS: the service's own integration tests, with no other service running.
 */
export async function startServiceUnderTest<C extends ServiceConfig>(
  service: ServiceName,
  build: (env: Record<string, string>) => { module: DynamicModule; config: C },
  extraEnv: Record<string, string> = {},
): Promise<ServiceUnderTest> {
  const db = await createTestDatabase(service.replace('-service', ''));
  const env = { ...busEnvOf(isolatedEnv(db.url), service), ...extraEnv };
  const { module, config } = build(env);
  const app = await createServiceApp({ service, module, config, defaultHealthPort: 0, healthPort: 0 });
  const rpc = new RpcClient({ natsUrl: env.NATS_URL, name: `${service}-test`, timeoutMs: 5000, subjectPrefix: env.NATS_SUBJECT_PREFIX, checkReplies: true, bus: testBusIdentity(env) });
  await rpc.connect();
  return {
    app,
    env,
    db,
    rpc,
    stop: async () => {
      await rpc.close();
      await app.close();
      await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
      await db.drop();
    },
  };
}
