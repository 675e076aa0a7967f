// Engine: SQLite only: the site QUIRE_USER_DATA_DIR names is a SQLite file in that folder.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from './config/package-root.js';
import { request } from './test-support/api-scenario.js';
import { startTestServer } from './test-support/test-server.js';

const root = packageRoot();
const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: { quire: string } };
const dir = mkdtempSync(join(tmpdir(), 'quire-user-data-'));
const userData = join(dir, 'user-data');

/**
 * `quire ARGS` as installed (the package's bin, which runs the build) with only QUIRE_USER_DATA_DIR
 * naming the site, its output piped as in a script: its exit code and both outputs.
 */
function quire(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, QUIRE_USER_DATA_DIR: userData, QUIRE_DB: '', QUIRE_DATABASE_URL: '' };
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, bin.quire), ...args], { cwd: dir, env }, (error, out, err) =>
      resolve({ code: error ? Number(error.code) : 0, out, err }),
    );
  });
}

beforeAll(async () => {
  // The site a desktop app with QUIRE_USER_DATA_DIR=user-data made: its default database, with a
  // content type of the user's own.
  mkdirSync(userData, { recursive: true });
  const server = await startTestServer({ dbFile: join(userData, 'content.sqlite') });
  try {
    const columns = [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'servings', label: 'Servings', type: 'number', required: false },
      { name: 'cuisine', label: 'Cuisine', type: 'text', required: false },
    ];
    const created = await request(server, 'POST', '/cms-content', { json: { title: 'Recipes', columns } });
    expect(created.response.status, created.text).toBe(201);
  } finally {
    await server.dispose();
  }
  writeFileSync(
    join(dir, 'recipes.ndjson'),
    `${JSON.stringify({ name: 'Soup', servings: 4, cuisine: 'Polish' })}\n${JSON.stringify({ name: 'Rice', servings: 2 })}\n`,
  );
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the default database, moved by QUIRE_USER_DATA_DIR', () => {
  it('quire types answers with the fields of the content type in that folder', async () => {
    const result = await quire(['types']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const recipe = result.out.match(/^export interface Recipe \{\n([\s\S]*?)\n\}/m)?.[1] ?? '';
    expect(recipe).toMatch(/^ {2}name: string;$/m);
    expect(recipe).toMatch(/^ {2}servings: number \| null;$/m);
    expect(recipe).toMatch(/^ {2}cuisine: string \| null;$/m);
  });

  it('quire import and quire export work on it; in a pipe they print no progress, only the summary', async () => {
    const imported = await quire(['import', '--type', 'recipes', 'recipes.ndjson']);
    expect(imported).toMatchObject({ code: 0, err: '' });
    expect(imported.out).toMatch(
      /^Imported 2 recipes rows from recipes\.ndjson in [\d.]+ s \([\d,]+ rows\/s\)(, indexes built after the rows in [\d.]+ s of that)?\n$/,
    );
    expect(imported.out).not.toMatch(/\r|Importing/);
    expect(imported.out).not.toContain('\u001b');

    const exported = await quire(['export', '--out', 'site-data', '--type', 'recipes']);
    expect(exported).toMatchObject({ code: 0, err: '' });
    expect(exported.out).toMatch(/^Exported 1 content types, 2 rows and 0 media files to .*site-data: [^\n]*\n$/);
    const files = readdirSync(join(dir, 'site-data'), { recursive: true }).map(String);
    const rows = files
      .filter((file) => file.includes('recipes') && file.endsWith('.json'))
      .map((file) => readFileSync(join(dir, 'site-data', file), 'utf8'))
      .join('\n');
    expect(rows).toContain('"Soup"');
    expect(rows).toContain('"Polish"');
  });

  it('quire import of a large file prints one line in a pipe, its search index saved within it', async () => {
    // Large enough (20,000 rows) for the import to save the search index for the next start.
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({ title: `Harbour note ${i}`, status: 'draft', published_at: '2025-01-01 00:00:00' }),
    );
    writeFileSync(join(dir, 'news.ndjson'), `${lines.join('\n')}\n`);
    const imported = await quire(['import', '--type', 'news', 'news.ndjson']);
    expect(imported).toMatchObject({ code: 0, err: '' });
    expect(imported.out).toMatch(
      /^Imported 20,000 news rows from news\.ndjson in [\d.]+ s \([\d,]+ rows\/s\)(, indexes built after the rows in [\d.]+ s of that)?, search index saved for the next start in [\d.]+ s\n$/,
    );
    expect(readdirSync(join(userData, 'content.sqlite-search-index')).length).toBe(1);
  }, 60_000);
});
