import { gzipSync } from 'node:zlib';
import { ERROR_CODES } from '@market/contracts';
import { request, startGateway, type LoneGateway } from '../testing/start-gateway';

// Every error the gateway answers is an RFC 9457 problem (ADR 0079), whichever layer refuses: the body parser before
// any route, a route's schema, the framework for an unknown path, a service that is not there. A client branches on
// `code`; `type` leads to what the code means.
describe('error bodies as problem details', () => {
  let gateway: LoneGateway;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const send = (path: string, init: RequestInit) => fetch(`${gateway.url}${path}`, init);

  it('answers a body that is not JSON as a 422 problem with the issues twice, in detail and errors', async () => {
    const answer = await send('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"login": ' });
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const issues = [{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }];
    expect(await answer.json()).toEqual({ type: '/api/errors/validation_failed', title: 'Validation failed', status: 422, code: 'validation_failed', detail: issues, errors: issues });
  });

  it('names an encoding it does not read unsupported_media_type, a body that does not decode bad_request, one over the limit payload_too_large', async () => {
    const unknown = await send('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'compress' }, body: 'xx' });
    expect([unknown.status, await unknown.json()]).toEqual([415, expect.objectContaining({ code: 'unsupported_media_type', status: 415, type: '/api/errors/unsupported_media_type' })]);
    // Bytes that claim a compression they are not in: a 400 naming it, never a 500.
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const garbled = await send('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body: 'xx' });
      expect([encoding, garbled.status, await garbled.json()]).toEqual([encoding, 400, expect.objectContaining({ code: 'bad_request', detail: `Request body could not be read as ${encoding} data` })]);
    }
    const large = await send('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(`"${'x'.repeat(2_000_000)}"`) });
    expect([large.status, await large.json()]).toEqual([413, expect.objectContaining({ code: 'payload_too_large', detail: 'Request body is larger than 1mb' })]);
  });

  it('answers an unknown API path and a schema failure with their codes', async () => {
    const unknown = await request('GET', `${gateway.url}/api/no-such-thing`);
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found', status: 404, title: 'Not found', type: '/api/errors/not_found' } });
    const invalid = await request('POST', `${gateway.url}/api/auth/login`, { login: 'x' });
    expect(invalid).toMatchObject({ status: 422, body: { code: 'validation_failed', errors: [expect.objectContaining({ loc: ['body', 'password'] })] } });
  });

  it('answers a service that is not there as unavailable, a 503 problem', async () => {
    // No listings-service runs behind this gateway: the request times out or finds no responder.
    const answer = await request('GET', `${gateway.url}/api/listings/0b0e7a56-0c53-4a43-9a61-5d0a4c2d8f11`);
    expect(answer).toMatchObject({ status: 503, body: { code: 'unavailable', status: 503 } });
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('tells what every code means at the address its type names, and 404s a code that does not exist', async () => {
    const list = await request('GET', `${gateway.url}/api/errors`);
    expect(list.status).toBe(200);
    expect((list.body as { errors: { code: string }[] }).errors.map((item) => item.code)).toEqual(Object.keys(ERROR_CODES));
    const one = await request('GET', `${gateway.url}/api/errors/rate_limited`);
    expect(one).toMatchObject({ status: 200, body: { code: 'rate_limited', status: 429, type: '/api/errors/rate_limited', title: 'Limit reached' } });
    const none = await request('GET', `${gateway.url}/api/errors/toString`);
    expect(none).toMatchObject({ status: 404, body: { code: 'not_found', detail: 'No error code toString' } });
  });
});
