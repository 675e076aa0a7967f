import { accessibilitySuite, THEMES } from './support/accessibility-suite.js';

/**
 * axe-core over every screen and dialog of the editor (support/accessibility-suite.ts), walked in
 * both themes (`npm test` walks the light one: editor-accessibility.test.ts).
 */
accessibilitySuite(THEMES);
