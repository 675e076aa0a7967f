import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { ContentRepository } from '../db/repositories/content-repository.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { captureOutput } from '../test-support/captured-output.js';
import { importCommand } from './import-command.js';

/** `quire import` into a single type gives it at most its one row, and refuses more, importing nothing. */

let dir: string;
let dbFile: string;

async function runImport(records: unknown[]) {
  const path = join(dir, `rows-${Date.now()}.json`);
  writeFileSync(path, JSON.stringify(records));
  const err = captureOutput();
  const code = await importCommand(['--db', dbFile, '--type', 'categories', path], { out: captureOutput(), err });
  return { code, err: err.text };
}

async function categoryCount(): Promise<number> {
  const database = await openDatabase(dbFile);
  try {
    return await new ContentRepository({ db: database.db, engine: database.engine }).count('categories', {
      equals: [],
    });
  } finally {
    await database.close();
  }
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-import-single-'));
  dbFile = join(dir, 'content.sqlite');
  const database = await openDatabase(dbFile);
  try {
    await new ContentTypeRepository(database.db).update('categories', { type: 'single' });
  } finally {
    await database.close();
  }
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('quire import into a single type', () => {
  it('refuses a file of more than one row, importing nothing', async () => {
    const refused = await runImport([{ title: 'One' }, { title: 'Two' }]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('categories is a single type');
    expect(await categoryCount()).toBe(0);
  });

  it('imports its first row, then refuses another', async () => {
    expect((await runImport([{ title: 'Only' }])).code).toBe(0);
    const again = await runImport([{ title: 'Second' }]);
    expect(again.code).toBe(2);
    expect(again.err).toContain('it has 1');
    expect(await categoryCount()).toBe(1);
  });
});
