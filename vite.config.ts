import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';

const strapiOrigin = process.env.STRAPI_URL ?? 'http://127.0.0.1:1337';

/**
 * `vite build --mode profile-shell`, after the app's build: the script of /profile
 * (src/entry-profile-shell.ts), built on its own into the same dist/ so that it shares no chunk with
 * the app (as a second entry of the app's build, its modules would join the app's first-paint
 * chunk). One self-contained classic script with a fixed name: the server puts it inline in
 * /profile's HTML (server/src/prerender/html.ts).
 */
const PROFILE_SHELL_MODE = 'profile-shell';
const profileShellBuild = {
  outDir: 'dist',
  emptyOutDir: false,
  copyPublicDir: false,
  sourcemap: false,
  modulePreload: false,
  rolldownOptions: {
    input: 'src/entry-profile-shell.ts',
    output: { format: 'iife', entryFileNames: 'profile-shell.js' },
    // Reading a property has no side effect in this code: the unit rules' unused messages go.
    treeshake: { propertyReadSideEffects: false },
  },
} as const;

export default defineConfig(({ isSsrBuild, mode }) => ({
  // precompress: dist/**/*.{br,gz} for the server to send (docs/operations.md).
  plugins: [react(), precompress()],
  resolve: {
    // React 19 has useSyncExternalStore built in; the npm shim would only duplicate it in the bundle.
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(new URL('./src/app/useSyncExternalStoreShim.ts', import.meta.url)),
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
  // The server bundle (`vite build --ssr src/entry-server.tsx`, into dist-ssr/) carries its own
  // React and libraries: the Strapi server next to it has React 18 in its node_modules.
  ssr: { noExternal: true },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, sourcemap: false, copyPublicDir: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: false,
        // dist/.vite/manifest.json: which chunk and CSS each page's source became, so the server
        // can preload them in prerendered HTML.
        manifest: true,
        // One stylesheet for the whole site (about 5 KB compressed): the first paint of any page has all
        // its CSS from one request, and lazy pages need no loader for their own CSS. With module
        // preloading left to the prerendered HTML (the server links each page's chunks), Vite adds no
        // preload helper to the first-paint script.
        cssCodeSplit: false,
        modulePreload: false,
        rolldownOptions: {
          output: {
            // Everything the first paint needs goes into one file: split into shared chunks, the same
            // code compresses about 2 KB worse and costs extra requests. Pages stay lazy chunks.
            codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
          },
        },
      },
  ...(mode === PROFILE_SHELL_MODE && { build: profileShellBuild }),
}));
