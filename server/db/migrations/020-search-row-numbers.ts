import { ensureSearchIndexes } from './search-index-step.js';

/**
 * On PostgreSQL, every search table is made again with its row number and writing transaction
 * (`quire:n`, `quire:x`) and the trigger noting deleted rows (postgres-search-index.ts), which the
 * in-memory search index reads to stay in step with every server's writes. On SQLite `ensure`
 * finds the search objects as they should be and changes nothing.
 */
export const up = ensureSearchIndexes;
