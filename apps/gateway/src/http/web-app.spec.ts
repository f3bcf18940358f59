import { mkdtempSync, rmSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { pickEncoding, webApp, type ServerPages } from './web-app';

/** The web app over `dir` on a free port, with a stand-in for the gateway's own routes after it. */
async function serveWebApp(dir: string, pages?: ServerPages): Promise<{ server: Server; base: string }> {
  const app = express();
  app.use(webApp(dir, pages));
  // What the gateway's own routes answer after the web app passes a request on.
  app.use((req, res) => res.status(299).type('text/plain').send(`route ${req.path}`));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('pickEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', null],
    ['', null],
    [undefined, null],
    ['br;q=0, gzip;q=0', null],
    ['BR', 'br'],
  ])('%j -> %s', (header, encoding) => {
    expect(pickEncoding(header)).toBe(encoding);
  });
});

describe('webApp serving precompressed assets', () => {
  let dir: string;
  let server: Server;
  let base: string;
  const js = 'export const answer = 42;\n'.repeat(200);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dir, 'assets', 'app-abc123.js'), js);
    writeFileSync(join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(Buffer.from(js)));
    writeFileSync(join(dir, 'assets', 'app-abc123.js.gz'), gzipSync(Buffer.from(js)));
    writeFileSync(join(dir, 'assets', 'small-1.css'), 'body{}');
    writeFileSync(join(dir, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["secret.ts"]}');
    writeFileSync(join(dir, 'favicon.ico'), 'ico');
    ({ server, base } = await serveWebApp(dir));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  // fetch() decompresses on its own; node:http shows the bytes as sent.
  const raw = async (path: string, acceptEncoding?: string) => {
    const { request } = await import('node:http');
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = request(`${base}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  };

  it('sends the brotli copy with the original type, Vary and a long cache', async () => {
    const res = await raw('/assets/app-abc123.js', 'gzip, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.body).toString()).toBe(js);
  });

  it('sends gzip to a gzip-only client and the plain file to one that takes neither', async () => {
    expect((await raw('/assets/app-abc123.js', 'gzip')).headers['content-encoding']).toBe('gzip');
    const plain = await raw('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.body.toString()).toBe(js);
  });

  it('sends the plain file, labelled as plain, when a copy it knew of is gone (a rebuild in place)', async () => {
    writeFileSync(join(dir, 'assets', 'gone-1.js'), js);
    writeFileSync(join(dir, 'assets', 'gone-1.js.br'), brotliCompressSync(Buffer.from(js)));
    expect((await raw('/assets/gone-1.js', 'br')).headers['content-encoding']).toBe('br');
    unlinkSync(join(dir, 'assets', 'gone-1.js.br'));
    const res = await raw('/assets/gone-1.js', 'br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(js);
  });

  it('sends a file without copies as it is, and client routes get index.html', async () => {
    const css = await raw('/assets/small-1.css', 'br');
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.body.toString()).toBe('body{}');
    const route = await raw('/help-center', 'br');
    expect(route.headers['cache-control']).toBe('no-cache');
    expect(route.body.toString()).toContain('<title>app</title>');
  });

  it('answers an unknown file 404 instead of the app page, and serves files that exist', async () => {
    for (const path of ['/manifest.json', '/assets/app-old999.js', '/wp-login.php']) {
      const res = await raw(path, 'br');
      expect([path, res.status, res.body.toString()]).toEqual([path, 404, 'Not found']);
    }
    expect((await raw('/favicon.ico')).body.toString()).toBe('ico');
    expect((await raw('/listing/3f6d9a4e-1b2c-4d5e-8f90-123456789abc')).body.toString()).toContain('<title>app</title>');
  });

  it('never serves a source map, though the build wrote one', async () => {
    const res = await raw('/assets/app-abc123.js.map');
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain('secret.ts');
  });

  it("passes the API, the probes and the crawlers' files on to the gateway's routes", async () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/sitemaps/listings-1.xml', '/api/listings', '/healthz']) {
      const res = await raw(path);
      expect([path, res.status, res.body.toString()]).toEqual([path, 299, `route ${path}`]);
    }
  });

  it('never leaves the build directory', async () => {
    const res = await raw('/assets/..%2f..%2f..%2fetc%2fpasswd', 'br');
    expect(res.body.toString()).not.toContain('root:');
  });
});

describe('webApp with server-rendered pages (ADR 0072)', () => {
  let dir: string;
  let server: Server;
  let base: string;
  const asked: string[] = [];
  const pages = {
    rendersOnServer: (path: string) => ['/listing/1', '/broken', '/slow-fallback', '/moved'].includes(path),
    page: async (path: string) => {
      asked.push(path);
      if (path === '/broken') throw new Error('renderer bug');
      if (path === '/slow-fallback') return null;
      if (path === '/moved') return { kind: 'redirect' as const, status: 301, location: '/listing/1' };
      return { kind: 'page' as const, status: 200, html: `<!doctype html><title>rendered ${path}</title>${'<p>figures</p>'.repeat(200)}` };
    },
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>shell</title>');
    ({ server, base } = await serveWebApp(dir, pages));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a rendered page with its query to the renderer, compressed when taken, never cached by the browser', async () => {
    const res = await fetch(`${base}/listing/1?ref=mail`, { headers: { 'accept-encoding': 'br' } });
    expect([res.status, res.headers.get('content-encoding'), res.headers.get('cache-control')]).toEqual([200, 'br', 'no-cache']);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<title>rendered /listing/1?ref=mail</title>');
    expect(asked).toContain('/listing/1?ref=mail');
  });

  it("falls back to the browser's shell, 200, when the renderer fails or gives up; follows its redirects", async () => {
    for (const path of ['/broken', '/slow-fallback']) {
      const res = await fetch(`${base}${path}`);
      expect([path, res.status, await res.text()]).toEqual([path, 200, '<!doctype html><title>shell</title>']);
    }
    const moved = await fetch(`${base}/moved`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/listing/1']);
  });

  it('leaves pages it does not render to the shell, and the API to its routes, without asking the renderer', async () => {
    asked.length = 0;
    expect(await (await fetch(`${base}/dashboard`)).text()).toBe('<!doctype html><title>shell</title>');
    expect(await (await fetch(`${base}/api/listings`)).text()).toBe('route /api/listings');
    expect(asked).toEqual([]);
  });
});
