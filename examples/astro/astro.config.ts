import { defineConfig } from 'astro/config';
import { quireLive } from './src/quire-live.js';
import { quireMedia } from './src/quire-media.js';

// SITE_OUT_DIR lets a test (or CI) build into a folder of its choosing.
export default defineConfig({
  outDir: process.env.SITE_OUT_DIR || './dist',
  // The content layer's cache stays with the site, never shared with another project.
  cacheDir: './.cache',
  // quireLive: `astro dev` runs the loaders again on each save in Quire.
  integrations: [quireMedia(), quireLive()],
});
