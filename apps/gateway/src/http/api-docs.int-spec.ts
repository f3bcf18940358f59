import { apiDocument } from '@market/contracts';
import { request, startGateway, type LoneGateway } from '../testing/start-gateway';

describe('the API document', () => {
  let gateway: LoneGateway;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('is served at /api/docs/openapi.json as generated from contracts, and the docs page loads', async () => {
    const served = await request('GET', `${gateway.url}/api/docs/openapi.json`);
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(JSON.stringify(apiDocument())));
    const page = await fetch(`${gateway.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });
});
