/**
 * The Quire content loaders: `quireTypesLoader` gives one entry per content type the site builds
 * (its columns describe how to lay out its rows), `quireRowsLoader` one entry per published row of
 * those types, keyed `<table>/<row id>`, with every locale's values of its localized columns (each
 * tree of the site picks its own in quire-site.ts). Each row entry also carries how to show the
 * images its image columns show (quire-images.ts). Reading a server,
 * the rows loader keeps the change feed's cursor in its meta store and, on the next build (or a
 * refresh in `astro dev`), reads only the rows changed since; a content-type change, or a cursor
 * the server no longer keeps, reads everything again.
 */
import type { Loader } from 'astro/loaders';
import { type QuireImage, quireImage } from './quire-images';
import { changesSince, contentTypes, followsFeed, publishedRow, publishedRows, sourceName } from './quire-source';
import type { ContentRow, ContentTypeSummary, ImageLayout } from './quire-types';

/** How to show each image a row shows (its size, alt text and sources), by its `/media/...` path. */
export type ImageSizes = Record<string, QuireImage>;

/** The data of one row entry. */
export interface RowEntry {
  table: string;
  row: ContentRow;
  images: ImageSizes;
}

/** A `blocks` column's block types, as far as the loader reads them. */
interface BlockType {
  name: string;
  columns: ContentTypeSummary['columns'];
}

/**
 * The upload paths the image columns of a row (or a block) show, those inside its blocks too; a
 * localized image column's value in every locale.
 */
export function imagePaths(columns: ContentTypeSummary['columns'], values: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const column of columns) {
    const value = values[column.name];
    const shown = column.localized && value !== null && typeof value === 'object' ? Object.values(value) : [value];
    for (const path of column.type === 'image' ? shown : []) {
      if (typeof path === 'string' && path !== '') paths.push(path);
    }
    if (column.type === 'blocks' && Array.isArray(value)) {
      const types = (column as { blocks?: BlockType[] }).blocks ?? [];
      for (const block of value as { type: string }[]) {
        const blockType = types.find((candidate) => candidate.name === block.type);
        if (blockType) paths.push(...imagePaths(blockType.columns, block as Record<string, unknown>));
      }
    }
  }
  return paths;
}

/** A row's page name (read in the page's locale): its first slug column's value, else its id. */
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
    async load({ store, meta, logger, generateDigest }) {
      const images = new Map<string, Promise<QuireImage | null>>();
      const imageOf = (path: string, layout: ImageLayout | undefined) => {
        if (!images.has(path)) images.set(path, quireImage(path, layout));
        return images.get(path) as Promise<QuireImage | null>;
      };
      const put = async (type: ContentTypeSummary, row: ContentRow) => {
        const shown: ImageSizes = {};
        for (const path of imagePaths(type.columns, row)) {
          const image = await imageOf(path, (row.media as Record<string, ImageLayout> | undefined)?.[path]);
          if (image) shown[path] = image;
        }
        const data: RowEntry = { table: type.table, row, images: shown };
        const record = data as unknown as Record<string, unknown>;
        store.set({ id: `${type.table}/${row.id}`, data: record, digest: generateDigest(record) });
      };
      const keep = (cursor: string) => meta.set('cursor', cursor);

      const since = followsFeed ? meta.get('cursor') : undefined;
      const feed = since ? await changesSince(since) : null;
      if (feed && !feed.changes.some((change) => change.action === 'type_change')) {
        const types = new Map((await contentTypes()).map((type) => [type.table, type]));
        const changed = new Map(feed.changes.map((change) => [`${change.type}/${change.id}`, change]));
        for (const [key, change] of changed) {
          const type = types.get(change.type);
          if (!type) continue;
          store.delete(key);
          const row = change.action === 'delete' ? null : await publishedRow(type, change.id);
          if (row) await put(type, row);
        }
        keep(feed.cursor);
        logger.info(`${changed.size} changed rows from the change feed of ${sourceName}`);
        return;
      }

      // Everything again: the feed's newest cursor first, so a save made meanwhile is read next time.
      const head = followsFeed ? await changesSince('0') : null;
      store.clear();
      let count = 0;
      for (const type of await contentTypes()) {
        for (const row of await publishedRows(type)) {
          await put(type, row);
          count++;
        }
      }
      if (head) keep(head.cursor);
      logger.info(`${count} published rows from ${sourceName}`);
    },
  };
}
