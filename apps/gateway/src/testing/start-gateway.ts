import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { parseEnvOrThrow } from '@market/server-kit';
import { baseUrl, busEnvOf, isolatedEnv } from '@market/server-kit/testing';
import { gatewayEnv } from '../gateway.config';
import { createGateway } from '../create-gateway';

export interface LoneGateway {
  url: string;
  env: Record<string, string>;
  app: NestExpressApplication;
  stop(): Promise<void>;
}

/** Starts one gateway in-process with isolated subjects and no service behind it (gateway-only tests). */
export async function startGateway(env: Record<string, string> = {}): Promise<LoneGateway> {
  const merged = { ...busEnvOf(isolatedEnv('postgres://postgres@127.0.0.1:5432/unused'), 'gateway'), UPLOADS_DIR: join(tmpdir(), 'lone-gateway-uploads'), ...env, PORT: '0', HOST: '127.0.0.1' };
  const app = await createGateway(parseEnvOrThrow(gatewayEnv, merged));
  await app.listen(0, '127.0.0.1');
  return { url: await baseUrl(app), env: merged, app, stop: () => app.close() };
}

/** Sends a request and returns status, headers and parsed body. */
export async function request(method: string, url: string, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json().catch(() => null)) as unknown };
}
