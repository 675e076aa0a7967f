// Engine: both in one run: it opens a SQLite database and a throwaway PostgreSQL database itself and asks
// both the same questions (PostgreSQL skipped, saying why, where there is no server).

import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, mediaStoreFor, type QuireApp } from '../app.js';
import type { ContentType } from '../content/content-type.js';
import { parseListQuery } from '../content/list-query.js';
import { postgresForTests, skipNote } from '../test-support/postgres.js';
import { pngImage } from '../test-support/sample-images.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';

/**
 * What every engine must do, asked of SQLite and PostgreSQL alike through the services and the
 * engine seam: the order of empty values and of text, the counts of a list, which rows a search
 * finds, a transaction that fails leaving nothing, a unique violation recognised as one, and media
 * bytes kept as they were sent. An engine that answers differently fails here by name.
 */

const postgres = await postgresForTests();

/** Titles where case, accents (composed and decomposed) and code-point order part ways. */
const TITLES = [
  'Café opening',
  'CAFÉ CORNER',
  'cafe\u0301 noir',
  'Cafeteria',
  'Straße',
  'STRASSE',
  'Zebra',
  'apple',
  'Äpfel',
  '_under',
  '10 items',
  '9 items',
  'Ωmega',
  'Ｆｕｌｌ width',
  'smile \u{1F600}',
] as const;

/** A rank per title, empty for every third one. */
const RANKS = TITLES.map((_, i) => (i % 3 === 0 ? null : (i * 7) % 5));

/** Text as search compares it: NFC, then lower case (JavaScript's rules, on every engine). */
const fold = (text: string) => text.normalize('NFC').toLowerCase();

/** Code-point order (UTF-8 byte order), which is not JavaScript's UTF-16 order past U+FFFF. */
function byCodePoint(a: string, b: string): number {
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const difference = (x[i].codePointAt(0) as number) - (y[i].codePointAt(0) as number);
    if (difference !== 0) return difference;
  }
  return x.length - y.length;
}

const ENGINES = [
  { engine: 'sqlite', runs: true, note: '' },
  { engine: 'postgres', runs: postgres.available, note: skipNote(postgres) },
] as const;

for (const { engine, runs, note } of ENGINES) {
  describe.skipIf(!runs)(`the ${engine} engine${note}`, () => {
    let opened: OpenTestDatabase;
    let quire: QuireApp;
    let type: ContentType;
    /** Title of each row id. */
    const titleOf = new Map<string, string>();

    beforeAll(async () => {
      opened = await openTestDatabase(engine);
      quire = await createApp({ database: opened.database, editorName: 'tester', log: () => {} });
      await quire.services.contentTypes.create({
        title: 'Samples',
        slug: 'samples',
        columns: [
          { name: 'title', label: 'Title', type: 'text', required: true },
          { name: 'rank', label: 'Rank', type: 'number', required: false },
          { name: 'note', label: 'Note', type: 'text', required: false },
        ],
      });
      type = quire.services.registry.requireBySlug('samples');
      for (const [i, title] of TITLES.entries()) {
        const row = await quire.services.rows.create(type, {
          title,
          rank: RANKS[i] === null ? '' : String(RANKS[i]),
          note: i % 4 === 0 ? '' : title,
        });
        titleOf.set(row.id, title);
        // Half the rows reach the search index before the rest are written: both are searched.
        if (i === Math.floor(TITLES.length / 2)) await quire.services.rows.searchFlushes.flush();
      }
    });
    afterAll(async () => {
      await opened?.dispose();
    });

    async function list(query: Record<string, unknown>) {
      return quire.services.rows.list(type, parseListQuery(type, { limit: '1000', ...query }));
    }

    it('orders empty values first ascending and last descending, ties by id', async () => {
      const ascending = await list({ order: 'rank' });
      const ranks = ascending.rows.map((row) => row.rank as number | null);
      const nulls = RANKS.filter((rank) => rank === null).length;
      expect(ranks.slice(0, nulls)).toEqual(Array(nulls).fill(null));
      expect(ranks.slice(nulls)).toEqual(RANKS.filter((rank) => rank !== null).sort((a, b) => (a ?? 0) - (b ?? 0)));
      const descending = await list({ order: 'rank', desc: 'true' });
      expect(descending.rows.map((row) => row.rank)).toEqual([...ranks].reverse());
      const rows = ascending.rows;
      for (let i = 1; i < rows.length; i++) {
        if (rows[i].rank === rows[i - 1].rank) expect(rows[i - 1].id < rows[i].id).toBe(true);
      }
    });

    it('orders text by code point, not by locale or case', async () => {
      const expected = [...TITLES].sort(byCodePoint);
      expect((await list({ order: 'title' })).rows.map((row) => row.title)).toEqual(expected);
      expect((await list({ order: 'title', desc: 'true' })).rows.map((row) => row.title)).toEqual(
        [...expected].reverse(),
      );
      const notes = (await list({ order: 'note' })).rows.map((row) => row.note as string | null);
      const empty = notes.filter((note) => note === null).length;
      expect(empty).toBe(TITLES.filter((_, i) => i % 4 === 0).length);
      expect(notes.slice(empty)).toEqual(notes.slice(empty).sort((a, b) => byCodePoint(a as string, b as string)));
    });

    it('counts all rows and the rows a filter keeps, at any page', async () => {
      const all = await list({ limit: '2' });
      expect(all.rows).toHaveLength(2);
      expect({ total: all.total, filtered: all.filtered }).toEqual({ total: TITLES.length, filtered: TITLES.length });
      const ranked = RANKS.filter((rank) => rank !== null && rank >= 2).length;
      const some = await list({ filter: 'rank>=2', limit: '1', offset: '1' });
      expect({ total: some.total, filtered: some.filtered }).toEqual({ total: TITLES.length, filtered: ranked });
      const found = await list({ filter: 'search=caf', limit: '1' });
      expect(found.filtered).toBe(TITLES.filter((title) => fold(title).includes('caf')).length);
    });

    it.each(
      [
        ['café'],
        ['CAFE'],
        ['cafe\u0301'],
        ['fé'],
        ['straße'],
        ['strasse'],
        ['äpfel'],
        ['ＦＵＬＬ'],
        ['\u{1F600}'],
        ['_'],
        ['%'],
        ['caf', 'OPEN'],
        ['ω'],
        ['zz'],
      ].map((keywords) => ({ keywords })),
    )('search $keywords finds the rows whose folded title holds every keyword', async ({ keywords }) => {
      const result = await list({ filter: keywords.map((keyword) => `search=${keyword}`) });
      const expected = TITLES.filter((title) => keywords.every((keyword) => fold(title).includes(fold(keyword))));
      expect(result.rows.map((row) => titleOf.get(row.id)).sort()).toEqual([...expected].sort());
      expect(result.filtered).toBe(expected.length);
    });

    it('leaves nothing of a transaction that fails, and recognises a unique violation as one', async () => {
      const { db, engine: seam } = opened.database;
      const [row] = (await sql<Record<string, unknown>>`select * from samples order by id limit 1`.execute(db)).rows;
      const copy = { ...row, id: `${row.id as string}-copy` };
      const failure = new Error('rolled back on purpose');
      await expect(
        db.transaction().execute(async (trx) => {
          await (trx as any).insertInto('samples').values(copy).execute();
          throw failure;
        }),
      ).rejects.toBe(failure);
      const count = await sql<{ n: number | string }>`select count(*) as n from samples`.execute(db);
      expect(Number(count.rows[0].n)).toBe(TITLES.length);
      expect((await list({})).total).toBe(TITLES.length);

      const duplicate = await (db as any)
        .insertInto('samples')
        .values(row)
        .execute()
        .catch((error: unknown) => error);
      expect(duplicate).toBeInstanceOf(Error);
      expect(seam.isUniqueViolation(duplicate)).toBe(true);
      const missing = await sql`select * from no_such_table`.execute(db).catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(Error);
      expect(seam.isUniqueViolation(missing)).toBe(false);
    });

    it('keeps media bytes as they were sent, found by the path it answers', async () => {
      const media = mediaStoreFor(opened.database);
      if (!media) throw new Error(`no media store on ${engine}`);
      const bytes = pngImage(5, 4);
      const pending = await media.store.receive(Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]), 1 << 20);
      const uploaded = await pending.commit();
      expect(uploaded).toMatchObject({ type: 'image/png', size: bytes.length, width: 5, height: 4 });
      const relative = uploaded.path.replace(/^\/media\//, '');
      const found = await media.store.find(relative);
      if (!found) throw new Error(`${uploaded.path} not found`);
      const kept = 'bytes' in found ? found.bytes : await readFile(found.file);
      expect(kept.equals(bytes)).toBe(true);
      expect(await media.store.list()).toEqual([expect.objectContaining({ path: relative, size: bytes.length })]);
      expect(await media.store.find(relative.replace(/\.png$/, '.gif'))).toBeNull();
    });
  });
}
