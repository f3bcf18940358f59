import { existsSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { browseViewOfCookies, type BrowseView } from '@market/contracts';

const MAX_REMEMBERED_PATHS = 2_000;
// The API, the probes and the site files crawlers ask for (ADR 0071) are answered by the gateway's routes.
const NOT_SPA = /^\/(?:(?:api|healthz|readyz|sitemaps)(?:\/|$)|(?:robots\.txt|sitemap\.xml)$)/;
// A last path segment with an extension names a file, never a page of the app.
const FILE_LIKE = /\/[^/]*\.[A-Za-z0-9]{1,10}$/;
// Source maps are built for error reports (hidden, ADR 0071), never served.
const SOURCE_MAP = /\.map$/i;
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
export type PrecompressedEncoding = (typeof ENCODINGS)[number][0];

/**
 * The best precompressed encoding an Accept-Encoding header allows: br, else gzip, else null (identity). A q of 0
 * refuses an encoding; `*` stands for any not named.
 */
export function pickEncoding(header: string | string[] | undefined): PrecompressedEncoding | null {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  for (const [encoding] of ENCODINGS) {
    if ((q.get(encoding) ?? q.get('*') ?? 0) > 0) return encoding;
  }
  return null;
}

// Vite fingerprints files under assets/, so they never change; everything else must always be fresh.
function setCache(res: Response, path: string): void {
  res.setHeader('Cache-Control', path.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/** A file that is not there (or not served): 404, plain, never cached. */
function notAFile(res: Response): void {
  res.status(404).setHeader('Cache-Control', 'no-cache');
  res.type('text/plain').send('Not found');
}

/** A rendered page as the web app's server bundle gives it (ADR 0072). */
export type ServerPage = { kind: 'page'; status: number; html: string } | { kind: 'redirect'; status: number; location: string };

/** The public pages rendered on the server (the gateway's PageRenderer); null from page() means the browser's shell. */
export interface ServerPages {
  rendersOnServer(path: string): boolean;
  page(path: string, prefs?: { browseView: BrowseView }): Promise<ServerPage | null>;
}

// Rendered documents are compressed as they are sent (a few tens of KB; brotli at a middle level costs about a ms).
const compressedPages = new WeakMap<ServerPage, Map<PrecompressedEncoding, Buffer>>();

/** Sends a rendered page, compressed when the browser takes it. */
function sendPage(req: Request, res: Response, page: ServerPage): void {
  res.setHeader('Cache-Control', 'no-cache');
  res.vary('Accept-Encoding');
  if (page.kind === 'redirect') {
    res.redirect(page.status, page.location);
    return;
  }
  res.status(page.status).type('html');
  const encoding = pickEncoding(req.headers['accept-encoding']);
  if (!encoding) {
    res.send(page.html);
    return;
  }
  let copies = compressedPages.get(page);
  if (!copies) compressedPages.set(page, (copies = new Map()));
  let body = copies.get(encoding);
  if (!body) {
    body = encoding === 'br' ? brotliCompressSync(page.html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(page.html, { level: 6 });
    copies.set(encoding, body);
  }
  res.setHeader('Content-Encoding', encoding);
  res.send(body);
}

/**
 * Serves the built web app; client routes fall back to index.html, /api stays with the API. Public pages are rendered
 * on the server when `pages` renders them (ADR 0072), else (or when that fails) they get index.html too.
 */
export function webApp(distDir: string, pages?: ServerPages): RequestHandler[] {
  const root = normalize(distDir);
  const index = join(root, 'index.html');
  const variants = new Map<string, boolean>();
  const hasVariant = (file: string) => {
    let known = variants.get(file);
    if (known === undefined) {
      known = existsSync(file);
      // Any path can be asked for; a bounded memo keeps made-up paths from growing it without end.
      if (variants.size >= MAX_REMEMBERED_PATHS) variants.clear();
      variants.set(file, known);
    }
    return known;
  };
  const assets = express.static(root, { index: false, setHeaders: (res, path) => setCache(res, path) });
  // The build wrote .br and .gz copies (ADR 0025): send one when the browser takes it, with the original's type.
  const precompressed: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // Whatever is sent, a cache must keep one copy per encoding: the plain answer too.
    res.vary('Accept-Encoding');
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return next();
    let file: string;
    try {
      file = normalize(join(root, decodeURIComponent(req.path)));
    } catch {
      return next();
    }
    if (!file.startsWith(root + sep)) return next();
    const suffix = ENCODINGS.find(([name]) => name === encoding)![1];
    if (!hasVariant(file + suffix)) return next();
    res.setHeader('Content-Encoding', encoding);
    res.type(extname(file));
    setCache(res, file);
    res.sendFile(file + suffix, (error) => {
      if (!error || res.headersSent) return;
      // The copy went away (a rebuild) or the request's conditions failed: answer as if there were no copy, without
      // the headers that belonged to it.
      variants.delete(file + suffix);
      for (const header of ['Content-Encoding', 'Content-Type', 'Cache-Control']) res.removeHeader(header);
      next();
    });
  };
  const fallback: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_SPA.test(req.path)) return next();
    // An unknown file (a stale asset, a guessed /manifest.json) is a 404, not the app's page with a 200.
    if (FILE_LIKE.test(req.path)) return notAFile(res);
    if (!existsSync(index)) {
      res.status(404).type('text/plain').send('The web app is not built. Run: npx nx run @market/web:build');
      return;
    }
    const shell = () => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    };
    if (!pages?.rendersOnServer(req.path)) return shell();
    // Browse shows the visitor's remembered view (its cookie): the page differs by it, so caches must know (Vary).
    const browse = req.path === '/browse';
    const prefs = { browseView: browse ? browseViewOfCookies(req.headers.cookie) : ('grid' as const) };
    if (browse) res.vary('Cookie');
    pages.page(req.originalUrl, prefs).then(
      (page) => (page ? sendPage(req, res, page) : shell()),
      () => shell(),
    );
  };
  const staticOnly: RequestHandler = (req, res, next) => {
    if (NOT_SPA.test(req.path)) return next();
    if (SOURCE_MAP.test(req.path)) return notAFile(res);
    precompressed(req, res, () => assets(req, res, next));
  };
  return [staticOnly, fallback];
}
