import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompress } from './build/precompress.plugin';

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig(({ mode }) => {
  // VITE_* values from the environment or .env files; only these two reach the bundle (README: environment variables).
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  return {
    plugins: [react(), precompress()],
    define: {
      __PREMIUM_DOMAINS_URL__: JSON.stringify(env.VITE_PREMIUM_DOMAINS_URL ?? ''),
      __VALUATION_URL__: JSON.stringify(env.VITE_VALUATION_URL ?? ''),
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
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: 'hidden' },
  };
});
