import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const strapiOrigin = process.env.STRAPI_URL ?? 'http://127.0.0.1:1337';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // React 19 has useSyncExternalStore built in; the npm shim would only duplicate it in the bundle.
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(new URL('./src/lib/useSyncExternalStoreShim.ts', import.meta.url)),
      },
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: strapiOrigin, changeOrigin: false },
      '/uploads': { target: strapiOrigin, changeOrigin: false },
      '/admin': { target: strapiOrigin, changeOrigin: false, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Everything the first paint needs goes into one file: split into shared chunks, the same
        // code compresses about 2 KB worse and costs extra requests. Pages stay lazy chunks.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
});
