import { defineConfig } from 'astro/config';
import { quireMedia } from './src/quire-media.js';

// SITE_OUT_DIR lets a test (or CI) build into a folder of its choosing.
export default defineConfig({
  outDir: process.env.SITE_OUT_DIR || './dist',
  // The content layer's cache stays with the site, never shared with another project.
  cacheDir: './.cache',
  integrations: [quireMedia()],
});
