// Engine: SQLite only: it rewrites a table's search triggers in the file outside the API, then restarts on it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { searchColumnsInLocale } from '../../locales/locale-search-columns.js';
import { callOk, request } from '../../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { searchTriggerName } from '../queries/internal-names.js';
import { indexedColumnsOfTable, indexedSearchColumnsOf } from '../queries/search-text-columns.js';
import { memoryIndexOf } from './sqlite-memory-search-state.js';
import {
  notedSearchColumns,
  readViaKysely,
  SEARCH_TRIGGER_EVENTS,
  searchTriggerSql,
} from './sqlite-search-triggers.js';

/**
 * A table whose search triggers were made when they noted the default locale's columns only is
 * brought to every locale's columns when the server starts, so a search in another locale is
 * answered by the in-memory index of its columns rather than by the plain scan.
 */

const LOCALES = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
  ],
};
const COLUMNS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'rank', label: 'Rank', type: 'number', required: false },
];

let dir: string;
let server: TestServer | null = null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-search-locales-'));
  const dbFile = join(dir, 'content.sqlite');
  const first = await startTestServer({ dir, dbFile });
  await callOk(first, 'PUT', '/locales', LOCALES);
  await callOk(first, 'POST', '/cms-content', { title: 'Places', columns: COLUMNS });
  const harbour = await callOk(first, 'POST', '/cms/places', { title: 'Harbour', rank: 1 });
  await callOk(first, 'PUT', `/cms/places/${harbour.id}?locale=de`, { title: 'Hafen' });
  await callOk(first, 'POST', '/cms/places', { title: 'Beach', rank: 2 });
  await first.stop();
  // The triggers as they were made before they followed every locale: the default columns only.
  const file = new Database(dbFile);
  try {
    const old = searchTriggerSql('places', indexedSearchColumnsOf(COLUMNS));
    file.transaction(() => {
      for (const event of SEARCH_TRIGGER_EVENTS) {
        file.prepare(`drop trigger "${searchTriggerName('places', event)}"`).run();
        file.prepare(old[event]).run();
      }
    })();
  } finally {
    file.close();
  }
  server = await startTestServer({ dir, dbFile });
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('search triggers made for the default locale only, at start', () => {
  it('follow every locale’s search columns again, and a search in de is answered by its index', async () => {
    const running = server as TestServer;
    const read = readViaKysely(running.database.db as unknown as Kysely<unknown>);
    expect(await notedSearchColumns(read, 'places')).toEqual(indexedColumnsOfTable(COLUMNS, LOCALES));
    const { response, body } = await request(running, 'GET', '/cms/places?locale=de&filter=search=hafen');
    expect(response.status).toBe(200);
    expect(body.rows.map((row: { title: string }) => row.title)).toEqual(['Hafen']);
    const columns = searchColumnsInLocale(LOCALES, COLUMNS, indexedSearchColumnsOf(COLUMNS), 'de');
    const { runner } = running.database;
    expect(runner && memoryIndexOf(runner, 'places', columns)?.ready).toBe(true);
  });
});
