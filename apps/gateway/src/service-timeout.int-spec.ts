import { connect, type NatsConnection } from 'nats';
import { RPC } from '@market/contracts';
import { request, startGateway, type LoneGateway } from './testing/start-gateway';

describe('a service that does not answer', () => {
  let stack: LoneGateway;
  let silent: NatsConnection;

  beforeAll(async () => {
    stack = await startGateway({ RPC_TIMEOUT_MS: '400' });
    // A responder that takes the request and never replies: a hung service. On a route no rate limit counts, so the
    // answer is the RPC timeout's alone (a limit's Redis call slowed by a busy machine fails closed with its own 503).
    silent = await connect({ servers: stack.env.NATS_URL });
    silent.subscribe(`${stack.env.NATS_SUBJECT_PREFIX}${RPC.listings.get.subject}`, { callback: () => undefined });
    await silent.flush();
  });
  afterAll(async () => {
    await silent?.close();
    await stack?.stop();
  });

  it('makes the gateway answer 503 within its timeout', async () => {
    const started = Date.now();
    const response = await request('GET', `${stack.url}/api/listings/6f1c7a52-55a1-4c8e-9d3c-0b8a6f1e2d4c`);
    const elapsed = Date.now() - started;
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ detail: 'Service temporarily unavailable, please try again' });
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(elapsed).toBeLessThan(3000);
  });

  it('answers 503 when no service is subscribed at all', async () => {
    const response = await request('POST', `${stack.url}/api/auth/register`, {
      username: 'nobody_home',
      email: 'nobody@example.com',
      password: 'a fine long password',
      age_confirmed: true,
    });
    expect(response.status).toBe(503);
  });

  it('never lets a cacheable route mark its 503 as cacheable', async () => {
    const response = await request('GET', `${stack.url}/api/fees`);
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control') ?? '').not.toContain('public');
  });
});
