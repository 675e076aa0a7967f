import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Builds the editor into dist/renderer, which the server serves at `/` (and the Electron window
 * loads from there). Absolute asset URLs (`base: '/'`) so deep links such as /news/rows/123 load
 * the same files; no inlined data: assets, so a strict Content-Security-Policy needs only 'self'.
 */
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  publicDir: 'public',
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: {
        // A message catalog's chunk is named by its language and namespace (`catalog-de-pages-row`),
        // so the bundle report can add them up and a look at the network says which one loaded.
        chunkFileNames: (chunk) => {
          const catalog =
            chunk.facadeModuleId && /\/i18n\/locales\/([\w-]+)\/([\w-]+)\.json$/.exec(chunk.facadeModuleId);
          return catalog ? `assets/catalog-${catalog[1]}-${catalog[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
  server: { host: '127.0.0.1' },
});
