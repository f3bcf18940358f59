import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scrapeMetrics } from './registry';

/** A listening metrics endpoint: its port and a way to close it. */
export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics on a port of its own, apart from the public API (the gateway's METRICS_PORT, ADR 0048); every
 * other path is a 404. Port 0 picks a free one (tests).
 */
export function startMetricsServer(port: number, host: string): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not found' }));
      return;
    }
    scrapeMetrics().then(
      ({ body, contentType }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      (error: Error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: `Metrics failed: ${error.message}` })),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
