import { hostileSvgSuite } from './support/hostile-svg-suite.js';

/**
 * Hostile SVG uploads in Chromium (support/hostile-svg-suite.ts): every payload of the corpus, each
 * in a browser page twice (`npm test` shows one of each kind: editor-svg-uploads.test.ts).
 */
hostileSvgSuite();
