import { ensureSearchIndexes } from './search-index-step.js';

/**
 * Brings every content table's search objects up to date with the engine. On SQLite this drops the
 * FTS5 index (searches are answered by the in-memory index, or the plain scan) and re-creates the
 * triggers so they only note changed rows in the pending table (sqlite-search-index.ts says why).
 * On PostgreSQL `ensure` finds its search table as it should be and changes nothing.
 */
export const up = ensureSearchIndexes;
