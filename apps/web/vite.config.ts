import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  plugins: [react()],
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
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
