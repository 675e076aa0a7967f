import { ensureSearchIndexes } from './search-index-step.js';

/** Adds the search index (and its triggers) to content tables created before it existed. */
export const up = ensureSearchIndexes;
