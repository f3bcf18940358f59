import { createServer } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { png } from '../uploads/testing/image-fixtures';
import { form, startUploadApp, TEST_USER_HEADER } from '../uploads/testing/upload-test-app';
import { request, startGateway, type LoneGateway } from '../testing/start-gateway';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Object storage down (ADR 0050): the gateway stays ready, saying it is degraded and why, so browse, bids and the rest
 * go on; only uploads answer, quickly, with a 503.
 */
describe('the gateway with its object storage down', () => {
  let storageEnv: Record<string, string>;
  let gateway: LoneGateway;
  let uploads: { app: INestApplication; base: string };

  beforeAll(async () => {
    storageEnv = {
      S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
      S3_ACCESS_KEY: 'storage-down-access',
      S3_SECRET_KEY: 'storage-down-secret-key-0123456789',
    };
    gateway = await startGateway(storageEnv);
    uploads = await startUploadApp(storageEnv);
  });
  afterAll(async () => {
    await uploads?.app.close();
    await gateway?.stop();
  });

  it('stays ready, degraded, naming storage as down', async () => {
    const ready = await request('GET', `${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'degraded', checks: { nats: 'up', storage: expect.stringMatching(/^down: /) } });
  });

  it('answers an upload with a 503 and a detail', async () => {
    const response = await fetch(`${uploads.base}/api/things`, {
      method: 'POST',
      headers: { [TEST_USER_HEADER]: 'storage-down-user' },
      body: form([{ name: 'screenshots', bytes: png(20, 20), filename: 'shot.png' }]),
    });
    expect(response.status).toBe(503);
    expect(typeof ((await response.json()) as { detail?: unknown }).detail).toBe('string');
  });
});
