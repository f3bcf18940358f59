import express from 'express';
import type { AddressInfo } from 'node:net';
import { unsubscribeRedirect } from './unsubscribe-redirect';

describe('GET on the one-click unsubscribe address (ADR 0074)', () => {
  const token = `s-2f1c7a52-55a1-4c8e-9d3c-0b8a6f1e2d4c.${'b'.repeat(86)}`;
  let base: string;
  let close: () => void;
  beforeAll(async () => {
    const app = express();
    app.use(unsubscribeRedirect());
    app.use((req, res) => res.status(404).json({ detail: `reached ${req.method} ${req.path}` }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('sends a browser to the page that asks first', async () => {
    const answer = await fetch(`${base}/api/unsubscribe/${token}`, { redirect: 'manual' });
    expect([answer.status, answer.headers.get('location')]).toEqual([303, `/unsubscribe/${token}`]);
  });

  it('leaves the POST, and any path that is not a token, to the API', async () => {
    expect((await fetch(`${base}/api/unsubscribe/${token}`, { method: 'POST', redirect: 'manual' })).status).toBe(404);
    for (const path of ['/api/unsubscribe/x', `/api/unsubscribe/${token}/more`, `/api/unsubscribe/${token.toUpperCase()}`, '/api/unsubscribe/%2F%2Fevil.example']) {
      expect((await fetch(`${base}${path}`, { redirect: 'manual' })).status).toBe(404);
    }
  });
});
