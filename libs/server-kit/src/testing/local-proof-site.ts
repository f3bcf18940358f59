import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the test site serves for one host's well-known file: a body, a redirect, a status, or nothing for a while. */
export type LocalProofPage = { body: string } | { redirect: string } | { status: number } | { hangMs: number };

export interface LocalProofSite {
  port: number;
  /** Sets what `http://<host>:<port>/.well-known/site-market-verification.txt` answers. */
  set(host: string, page: LocalProofPage): void;
  /** Every host whose well-known file was asked for, in order (a refused redirect never arrives here). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1 standing in for sellers' and buyers' websites in tests of the ownership proof
 * (ADR 0040), answering by the Host header; unknown hosts get a 404.
 */
export async function startLocalProofSite(): Promise<LocalProofSite> {
  const pages = new Map<string, LocalProofPage>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    requests.push(host);
    const page = pages.get(host);
    if (!page || req.url !== '/.well-known/site-market-verification.txt') return void res.writeHead(404).end('not found');
    if ('body' in page) return void res.writeHead(200, { 'content-type': 'text/plain' }).end(page.body);
    if ('redirect' in page) return void res.writeHead(302, { location: page.redirect }).end();
    if ('status' in page) return void res.writeHead(page.status).end();
    const timer = setTimeout(() => res.writeHead(200).end(''), page.hangMs);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    set: (host, page) => void pages.set(host.toLowerCase(), page),
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
