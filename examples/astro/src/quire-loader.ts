/**
 * The whole Quire content loader: one collection per content type, one entry per published row,
 * keyed by the row's slug (its page address), the row itself as the entry's data.
 */
import type { Loader } from 'astro/loaders';
import { publishedRows, sourceName, type Table } from './quire-source';

export function quireLoader(table: Table): Loader {
  return {
    name: `quire:${table}`,
    async load({ store, logger, generateDigest }) {
      const rows = await publishedRows(table);
      store.clear();
      for (const row of rows) {
        const data = row as unknown as Record<string, unknown>;
        const id = typeof data.slug === 'string' && data.slug !== '' ? data.slug : row.id;
        store.set({ id, data, digest: generateDigest(data) });
      }
      logger.info(`${rows.length} ${table} rows from ${sourceName}`);
    },
  };
}
