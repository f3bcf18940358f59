import type { IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { gatewayEnv } from '../gateway.config';
import type { ErrorCode } from '@market/contracts';
import { parseEnvOrThrow, generateSigningKeys, generateBusEnv } from '@market/server-kit';
import { matchLivePath, originAllowed, parseOriginList, rejectUpgrade, type OriginPolicy } from './live-handshake';

const ID = '6f1c1a52-4c6e-4b8e-9d59-2f0f3d8a7b10';

describe('matchLivePath', () => {
  it('finds the listing id, lower-cased, with or without a query string', () => {
    expect(matchLivePath(`/ws/listings/${ID}`)).toEqual({ kind: 'listing', listingId: ID });
    expect(matchLivePath(`/ws/listings/${ID.toUpperCase()}?v=1`)).toEqual({ kind: 'listing', listingId: ID });
  });

  it('calls anything else under /ws/listings/ a bad id', () => {
    for (const path of ['/ws/listings/', '/ws/listings/42', '/ws/listings/%E0%A4%A', `/ws/listings/${ID}x`]) {
      expect(matchLivePath(path)).toEqual({ kind: 'bad-id' });
    }
  });

  it('leaves other paths alone', () => {
    for (const path of ['/', '/ws/listings', `/ws/listings/${ID}/bids`, `/api/listings/${ID}`, '/ws', undefined]) {
      expect(matchLivePath(path)).toEqual({ kind: 'other' });
    }
  });
});

describe('originAllowed', () => {
  const policy: OriginPolicy = { proxyHops: 0, allowed: new Set(['https://market.example', 'http://localhost:5173']) };
  const request = (headers: IncomingHttpHeaders, encrypted = false) => ({ headers: { host: 'gw.internal:3000', ...headers }, socket: { encrypted } });

  it('lets in clients that send no Origin (not browsers)', () => {
    expect(originAllowed(request({}), policy)).toBe(true);
  });

  it("lets in the request's own origin, PUBLIC_URL's and the listed ones", () => {
    expect(originAllowed(request({ origin: 'http://gw.internal:3000' }), policy)).toBe(true);
    expect(originAllowed(request({ origin: 'https://gw.internal:3000' }, true), policy)).toBe(true);
    expect(originAllowed(request({ origin: 'https://market.example' }), policy)).toBe(true);
    expect(originAllowed(request({ origin: 'http://localhost:5173' }), policy)).toBe(true);
  });

  it('refuses other sites, other schemes or ports of the same host, and junk', () => {
    for (const origin of ['https://evil.example', 'https://gw.internal:3000', 'http://gw.internal:3001', 'null', 'market.example', 'http://market.example']) {
      expect(originAllowed(request({ origin }), policy)).toBe(false);
    }
  });

  it('believes X-Forwarded-Proto only behind trusted proxies (TRUST_PROXY of 1 or more hops)', () => {
    const behindTls = request({ origin: 'https://gw.internal:3000', 'x-forwarded-proto': 'https, http' });
    expect(originAllowed(behindTls, policy)).toBe(false);
    expect(originAllowed(behindTls, { ...policy, proxyHops: 1 })).toBe(true);
    expect(originAllowed(behindTls, { ...policy, proxyHops: 2 })).toBe(true);
  });
});

describe('WS_ALLOWED_ORIGINS', () => {
  const parse = (value?: string) => parseEnvOrThrow(gatewayEnv, { JWT_PUBLIC_KEYS: generateSigningKeys().JWT_PUBLIC_KEYS, ...generateBusEnv('gateway'), ...(value === undefined ? {} : { WS_ALLOWED_ORIGINS: value }) });

  it('is empty by default and parses comma-separated origins', () => {
    expect(parse().WS_ALLOWED_ORIGINS).toEqual([]);
    expect(parse('').WS_ALLOWED_ORIGINS).toEqual([]);
    expect(parse(' http://localhost:5173 , https://Admin.Market.example/ ').WS_ALLOWED_ORIGINS).toEqual(['http://localhost:5173', 'https://admin.market.example']);
  });

  it('stops the start with a line naming the variable on anything that is not an origin', () => {
    for (const bad of ['market.example', 'ftp://market.example', 'https://market.example/app', 'https://market.example,*']) {
      expect(() => parse(bad)).toThrow(/^Invalid configuration: WS_ALLOWED_ORIGINS: .*is not an origin/);
    }
    expect(parseOriginList('https://a.example,,https://b.example')).toEqual(['https://a.example', 'https://b.example']);
  });
});

describe('rejectUpgrade', () => {
  /** Everything written to a socket that was refused. */
  const answerTo = (code: ErrorCode, detail: string, headers?: Record<string, string>) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      const socket = new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      });
      socket.on('finish', () => resolve(Buffer.concat(chunks).toString('latin1')));
      rejectUpgrade(socket as never, code, detail, headers);
    });

  it('answers the problem body of its code with the given headers, and writes no header value that could end the header block', async () => {
    const answer = await answerTo('rate_limited', 'Too many', { 'Retry-After': '30', RateLimit: '"live-sockets";r=0;t=30', 'X-Bad': 'a\r\nSet-Cookie: x=1' });
    const [head, body] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 429 Too Many Requests',
      'Connection: close',
      'Content-Type: application/problem+json',
      'Retry-After: 30',
      'RateLimit: "live-sockets";r=0;t=30',
      `Content-Length: ${Buffer.byteLength(body)}`,
    ]);
    expect(JSON.parse(body)).toEqual({ type: '/api/errors/rate_limited', title: 'Limit reached', status: 429, code: 'rate_limited', detail: 'Too many' });
  });
});
