import { everyLanguageSuite } from './support/every-language-suite.js';

/**
 * Each language renders every screen with no missing key (support/every-language-suite.ts), in
 * every editor language (`npm test` walks English and French: editor-every-language.test.ts).
 */
everyLanguageSuite();
