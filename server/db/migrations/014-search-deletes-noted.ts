import { ensureSearchIndexes } from './search-index-step.js';

/**
 * Brings every content table's search index up to date with the engine. On SQLite the delete
 * trigger then began to note deleted rows in the pending table, which the in-memory search index
 * reads (issue 13).
 */
export const up = ensureSearchIndexes;
