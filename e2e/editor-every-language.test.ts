import { everyLanguageSuite, REPRESENTATIVE_LANGUAGES } from './support/every-language-suite.js';

/**
 * Each language renders every screen with no missing key (support/every-language-suite.ts), in
 * English and French; every editor language is editor-every-language.stress.test.ts
 * (`npm run test:stress`).
 */
everyLanguageSuite(REPRESENTATIVE_LANGUAGES);
