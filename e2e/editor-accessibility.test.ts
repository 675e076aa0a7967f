import { accessibilitySuite, REPRESENTATIVE_THEMES } from './support/accessibility-suite.js';

/**
 * axe-core over every screen and dialog of the editor (support/accessibility-suite.ts), walked in
 * the light theme; the walk in both themes is editor-accessibility.stress.test.ts
 * (`npm run test:stress`).
 */
accessibilitySuite(REPRESENTATIVE_THEMES);
