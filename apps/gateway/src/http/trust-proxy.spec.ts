import express, { type Request } from 'express';
import { generateBusEnv, generateSigningKeys, parseEnvOrThrow } from '@market/server-kit';
import { gatewayEnv } from '../gateway.config';
import { clientAddress } from './trust-proxy';

const parse = (value?: string) => parseEnvOrThrow(gatewayEnv, { JWT_PUBLIC_KEYS: generateSigningKeys().JWT_PUBLIC_KEYS, ...generateBusEnv('gateway'), ...(value === undefined ? {} : { TRUST_PROXY: value }) });
const PEER = '10.0.0.9';
const request = (forwarded?: string) => ({ headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded }, socket: { remoteAddress: PEER } });

/** What Express itself makes of the request with `trust proxy` = hops: req.ip of the app's own request prototype. */
function expressIp(hops: number, forwarded?: string): string {
  const app = express();
  app.set('trust proxy', hops);
  const req = Object.create(app.request) as Request;
  Object.assign(req, request(forwarded));
  return req.ip ?? '';
}

describe('TRUST_PROXY', () => {
  it('is a hop count, 0 by default; its old true and false mean 1 and 0', () => {
    expect(parse().TRUST_PROXY).toBe(0);
    expect(parse('0').TRUST_PROXY).toBe(0);
    expect(parse('2').TRUST_PROXY).toBe(2);
    expect(parse('true').TRUST_PROXY).toBe(1);
    expect(parse('false').TRUST_PROXY).toBe(0);
  });

  it.each(['yes', 'TRUE', '-1', '1.5', '2 hops', '', ' 1', '99999999999999999999'])('refuses %j with one line naming the variable', (value) => {
    expect(() => parse(value)).toThrow(/^Invalid configuration: TRUST_PROXY: must be the number of trusted proxy hops/);
  });
});

describe('clientAddress', () => {
  it('with 0 hops is the socket peer, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('203.0.113.7'), 0)).toBe(PEER);
    expect(clientAddress(request(), 0)).toBe(PEER);
  });

  it('with 1 hop is the entry the one proxy added (the rightmost); the client cannot choose it', () => {
    expect(clientAddress(request('203.0.113.7'), 1)).toBe('203.0.113.7');
    // A client that sends its own X-Forwarded-For only adds entries left of the proxy's.
    expect(clientAddress(request('198.51.100.66, 192.0.2.1, 203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(request(), 1)).toBe(PEER);
  });

  it('with 2 hops (a load balancer, then the ingress) is the entry the load balancer added, second from the right', () => {
    // The client 203.0.113.7 reached the load balancer, which reached the ingress 10.0.0.2, which reached the gateway.
    expect(clientAddress(request('203.0.113.7, 10.0.0.2'), 2)).toBe('203.0.113.7');
    // Spoofed entries sit left of what the load balancer wrote and are never reached.
    expect(clientAddress(request('198.51.100.66, 192.0.2.1, 203.0.113.7, 10.0.0.2'), 2)).toBe('203.0.113.7');
    // Fewer entries than hops: the farthest there is, as Express does.
    expect(clientAddress(request('10.0.0.2'), 2)).toBe('10.0.0.2');
  });

  it.each([0, 1, 2, 3])('agrees with Express’s req.ip for trust proxy = %i', (hops) => {
    for (const forwarded of [undefined, '', '203.0.113.7', '198.51.100.66, 203.0.113.7', '198.51.100.66,203.0.113.7 , 10.0.0.2', '2001:db8::1, 203.0.113.7, 10.0.0.2, 10.0.0.3', 'not-an-address, 10.0.0.2']) {
      expect(clientAddress(request(forwarded), hops)).toBe(expressIp(hops, forwarded));
    }
  });
});
