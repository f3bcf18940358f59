import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompress } from './build/precompress.plugin';
import { bootPreload } from './build/boot-preload.plugin';
import { BOOT_MODULE } from './src/app/render/page-assets';

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig(({ mode, isSsrBuild }) => {
  // VITE_* values from the environment or .env files; only these two reach the bundle (README: environment variables).
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  return {
    // The server renderer's bundle (ADR 0072) is read by the gateway from disk: nothing to precompress there.
    plugins: isSsrBuild ? [react()] : [react(), bootPreload(BOOT_MODULE), precompress()],
    define: {
      __PREMIUM_DOMAINS_URL__: JSON.stringify(env.VITE_PREMIUM_DOMAINS_URL ?? ''),
      __VALUATION_URL__: JSON.stringify(env.VITE_VALUATION_URL ?? ''),
      __SSR__: JSON.stringify(Boolean(isSsrBuild)),
    },
    resolve: {
      alias: {
        '@market/domain': lib('domain'),
        '@market/contracts': lib('contracts'),
      },
    },
    server: {
      port: 5173,
      // The Host header is passed through (no changeOrigin), so the gateway's websocket Origin check sees its own origin.
      proxy: { '/api': { target: 'http://127.0.0.1:3000' }, '/ws': { target: 'ws://127.0.0.1:3000', ws: true } },
    },
    // Source maps are written for error reports but not linked from the bundles; the gateway never serves them (ADR 0071).
    // `vite build --ssr src/entry-server.tsx` writes the server renderer to dist-server, beside (never inside) what
    // the gateway serves as files.
    build: isSsrBuild ? { outDir: 'dist-server', emptyOutDir: true, sourcemap: false, copyPublicDir: false } : { outDir: 'dist', emptyOutDir: true, sourcemap: 'hidden', manifest: true },
  };
});
