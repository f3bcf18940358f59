import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler } from 'express';

const NOT_SPA = /^\/(api|healthz|readyz)(\/|$)/;

/** Serves the built web app; client routes fall back to index.html, /api stays with the API. */
export function webApp(distDir: string): RequestHandler[] {
  const index = join(distDir, 'index.html');
  const assets = express.static(distDir, {
    index: false,
    setHeaders: (res, path) => {
      // Vite fingerprints files under assets/, so they never change; index.html must always be fresh.
      res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const fallback: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_SPA.test(req.path)) return next();
    if (!existsSync(index)) {
      res.status(404).type('text/plain').send('The web app is not built. Run: npx nx run @market/web:build');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  };
  const staticOnly: RequestHandler = (req, res, next) => (NOT_SPA.test(req.path) ? next() : assets(req, res, next));
  return [staticOnly, fallback];
}
