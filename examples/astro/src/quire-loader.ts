/**
 * The Quire content loaders: `quireTypesLoader` gives one entry per content type the site builds
 * (its columns describe how to lay out its rows), `quireRowsLoader` one entry per published row of
 * those types, keyed `<table>/<page>` where the page is the row's slug (else its id). Each row
 * entry also carries the width and height of the images its image columns show.
 */
import { imageMetadata } from 'astro/assets/utils';
import type { Loader } from 'astro/loaders';
import { contentTypes, mediaFile, publishedRows, sourceName } from './quire-source';
import type { ContentRow, ContentTypeSummary } from './quire-types';

/** An image's size in pixels, by its `/media/...` path. */
export type ImageSizes = Record<string, { width: number; height: number }>;

/** The data of one row entry. */
export interface RowEntry {
  table: string;
  /** The last segment of the row's page address. */
  page: string;
  row: ContentRow;
  images: ImageSizes;
}

/** A row's page name: its first slug column's value, else its id. */
export function pageName(type: ContentTypeSummary, row: ContentRow): string {
  const slugColumn = type.columns.find((column) => column.type === 'slug')?.name;
  const slug = slugColumn ? row[slugColumn] : null;
  return typeof slug === 'string' && slug !== '' ? slug : row.id;
}

/** One entry per content type the site builds, keyed by its table. */
export function quireTypesLoader(): Loader {
  return {
    name: 'quire:types',
    async load({ store, logger, generateDigest }) {
      const types = await contentTypes();
      store.clear();
      for (const type of types) {
        const data = type as unknown as Record<string, unknown>;
        store.set({ id: type.table, data, digest: generateDigest(data) });
      }
      logger.info(`${types.length} content types from ${sourceName}: ${types.map((type) => type.table).join(', ')}`);
    },
  };
}

/** One entry per published row of the types the site builds. */
export function quireRowsLoader(): Loader {
  return {
    name: 'quire:rows',
    async load({ store, logger, generateDigest }) {
      store.clear();
      const sizes = new Map<string, Promise<{ width: number; height: number } | null>>();
      const sizeOf = (path: string) => {
        if (!sizes.has(path)) {
          sizes.set(
            path,
            mediaFile(path)
              .then((bytes) => imageMetadata(bytes, path))
              .then(({ width, height }) => ({ width, height }))
              .catch((error: Error) => {
                logger.warn(`${path}: no width and height (${error.message})`);
                return null;
              }),
          );
        }
        return sizes.get(path) as Promise<{ width: number; height: number } | null>;
      };
      let count = 0;
      for (const type of await contentTypes()) {
        const imageColumns = type.columns.filter((column) => column.type === 'image').map((column) => column.name);
        for (const row of await publishedRows(type)) {
          const images: ImageSizes = {};
          for (const name of imageColumns) {
            const path = row[name];
            const size = typeof path === 'string' && path !== '' ? await sizeOf(path) : null;
            if (typeof path === 'string' && size) images[path] = size;
          }
          const page = pageName(type, row);
          const data: RowEntry = { table: type.table, page, row, images };
          const record = data as unknown as Record<string, unknown>;
          store.set({ id: `${type.table}/${page}`, data: record, digest: generateDigest(record) });
          count++;
        }
      }
      logger.info(`${count} published rows from ${sourceName}`);
    },
  };
}
