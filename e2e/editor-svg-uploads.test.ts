import { hostileSvgSuite, REPRESENTATIVE_SVG_PAYLOADS } from './support/hostile-svg-suite.js';

/**
 * Hostile SVG uploads in Chromium (support/hostile-svg-suite.ts): one payload of each kind of
 * attack; the whole corpus is editor-svg-uploads.stress.test.ts (`npm run test:stress`).
 */
hostileSvgSuite(REPRESENTATIVE_SVG_PAYLOADS);
