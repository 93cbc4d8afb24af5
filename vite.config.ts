import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const strapiOrigin = process.env.STRAPI_URL ?? 'http://127.0.0.1:1337';

export default defineConfig({
  plugins: [react()],
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
  },
});
