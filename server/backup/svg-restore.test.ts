// Engine: both in one run: it restores a SQLite site's backup folder, whose media are files, into a SQLite file and
// into a PostgreSQL database of its own (skipped, saying why, without PostgreSQL), then copies that one to a file.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../cli-commands.js';
import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { type RunningServer, startServer } from '../server.js';
import {
  createTestDatabase,
  postgresForTests,
  runAdmin,
  skipNote,
  type TestDatabase,
} from '../test-support/postgres.js';
import { type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import { svgLeftovers, svgPayloads } from '../test-support/svg-payloads.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { copyCommand } from './copy-command.js';

/**
 * A backup is a folder anyone may have changed, and a copy's source a database anyone may have
 * changed: their SVGs are cleaned as uploads are when they arrive (restore into either engine,
 * `quire copy`), the file as it was kept in `media/.set-aside/` (PostgreSQL keeps no copy: the
 * backup still has it) and said in a line; one cleaning refuses arrives without file or asset; the
 * library's record of a cleaned one follows its file when the server starts.
 */

const postgres = await postgresForTests();
const BEACON = 'http://beacon.invalid:8';
const HOSTILE = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>fetch('${BEACON}/x')</script><rect width="40" height="20"/></svg>`,
);
/** An SVG cleaning refuses (not well-formed). */
const BROKEN = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect></svg>');

let dir: string;
let server: TestServer | null = null;
const lines: string[] = [];
let hostile: { id: string; path: string };
let kept: { id: string; path: string; bytes: Buffer };
let broken: { id: string; path: string };
/** The backup folder restored. */
let backup: string;

async function uploadSvg(origin: string, svg: string): Promise<{ id: string; path: string }> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(svg)], { type: 'image/svg+xml' }), 'drawing.svg');
  const response = await fetch(`${origin}/api/uploads?duplicate=true`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; path: string };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-svg-restore-'));
  const dbFile = join(dir, 'content.sqlite');
  const first = await startTestServer({ dir, dbFile });
  hostile = await uploadSvg(
    first.origin,
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>',
  );
  const clean = await uploadSvg(
    first.origin,
    '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle r="4"/></svg>',
  );
  kept = { ...clean, bytes: Buffer.from(await (await fetch(`${first.origin}${clean.path}`)).arrayBuffer()) };
  broken = await uploadSvg(
    first.origin,
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="4" height="2"/></svg>',
  );
  await first.stop();
  // The backup's drawings changed after they were cleaned at upload: one carries script now, one is broken.
  writeFileSync(join(dir, hostile.path), HOSTILE);
  writeFileSync(join(dir, broken.path), BROKEN);
  backup = await backupFile(dbFile);
  const warn = vi.spyOn(console, 'warn').mockImplementation((line: string) => {
    lines.push(line);
  });
  try {
    await restoreDatabase(backup, dbFile);
  } finally {
    warn.mockRestore();
  }
  server = await startTestServer({ dir, dbFile });
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('quire restore of a backup whose SVG carries script', () => {
  it('restores it cleaned, the file as it was set aside and said in a line', async () => {
    const served = await fetch(`${server?.origin}${hostile.path}`);
    const text = await served.text();
    expect(svgLeftovers(text, BEACON)).toEqual([]);
    expect(text).toContain('<rect width="40" height="20"/>');
    const relative = hostile.path.replace('/media/', '');
    expect(readFileSync(join(dir, 'media', '.set-aside', ...relative.split('/')))).toEqual(HOSTILE);
    const line = lines.find((said) => said.includes(relative));
    expect(line).toContain(`it was cleaned as uploads are`);
    expect(line).toContain(`kept in media/.set-aside/${relative}`);
  });

  it('brings the asset’s size and hash up to the cleaned file when the server starts', async () => {
    const served = Buffer.from(await (await fetch(`${server?.origin}${hostile.path}`)).arrayBuffer());
    const asset = (await (await fetch(`${server?.api}/media/${hostile.id}`)).json()) as Record<string, unknown>;
    const { createHash } = await import('node:crypto');
    expect(asset).toMatchObject({
      size: served.length,
      hash: createHash('sha256').update(served).digest('hex'),
      width: 40,
      height: 20,
    });
  });

  it('brings no file and no asset of an SVG cleaning refuses, the file as it was set aside', async () => {
    expect((await fetch(`${server?.origin}${broken.path}`)).status).toBe(404);
    expect((await fetch(`${server?.api}/media/${broken.id}`)).status).toBe(404);
    expect(readFileSync(under(join(dir, 'media', '.set-aside'), broken.path))).toEqual(BROKEN);
  });

  it('restores a clean drawing byte for byte, setting nothing aside', async () => {
    const served = Buffer.from(await (await fetch(`${server?.origin}${kept.path}`)).arrayBuffer());
    expect(served).toEqual(kept.bytes);
    const relative = kept.path.replace('/media/', '');
    expect(existsSync(join(dir, 'media', '.set-aside', ...relative.split('/')))).toBe(false);
    expect(lines.some((said) => said.includes(relative))).toBe(false);
  });
});

/** The path of a media URL path under a media folder. */
function under(folder: string, path: string): string {
  return join(folder, ...path.replace('/media/', '').split('/'));
}

/** Its size and hash, as the asset of served bytes says them. */
async function describedAs(bytes: Buffer): Promise<{ size: number; hash: string }> {
  const { createHash } = await import('node:crypto');
  return { size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex') };
}

describe.skipIf(!postgres.available)(`an SVG arriving in or from PostgreSQL${skipNote(postgres)}`, () => {
  let database: TestDatabase;
  let onPostgres: PostgresTestServer | null = null;
  const said: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(postgres.url);
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: string) => void said.push(line));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(
        await main(['restore', backup, '--database', database.url, '--backup-dir', join(dir, 'backups')], {}),
      ).toBe(0);
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
    onPostgres = await startPostgresTestServer(database.target);
  }, 60_000);

  afterAll(async () => {
    await onPostgres?.close();
    await database?.drop();
  });

  it('quire restore --database cleans the backup’s SVG, naming the backup’s file as it was', async () => {
    const served = Buffer.from(await (await fetch(`${onPostgres?.origin}${hostile.path}`)).arrayBuffer());
    expect(svgLeftovers(served.toString(), BEACON)).toEqual([]);
    expect(served.toString()).toContain('<rect width="40" height="20"/>');
    const original = under(join(backup, 'media'), hostile.path);
    expect(readFileSync(original)).toEqual(HOSTILE);
    const line = said.find((one) => one.includes(hostile.path.replace('/media/', '')));
    expect(line).toContain('it was cleaned as uploads are');
    expect(line).toMatch(new RegExp(`kept in ${original.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    const asset = (await (await fetch(`${onPostgres?.api}/media/${hostile.id}`)).json()) as Record<string, unknown>;
    expect(asset).toMatchObject({ ...(await describedAs(served)), width: 40, height: 20 });
    // The clean drawing arrives byte for byte.
    expect(Buffer.from(await (await fetch(`${onPostgres?.origin}${kept.path}`)).arrayBuffer())).toEqual(kept.bytes);
  });

  it('quire restore --database brings no file and no asset of an SVG cleaning refuses', async () => {
    expect((await fetch(`${onPostgres?.origin}${broken.path}`)).status).toBe(404);
    expect((await fetch(`${onPostgres?.api}/media/${broken.id}`)).status).toBe(404);
    const line = said.find((one) => one.includes(broken.path.replace('/media/', '')));
    expect(line).toContain('cannot be cleaned (The SVG is not well-formed XML');
  });

  it('quire copy to a file cleans what the database holds, setting each file as it was aside', async () => {
    // The database's drawings changed outside Quire: one carries a payload of the corpus, one is broken.
    const payload = svgPayloads(BEACON).find((one) => one.name === 'onload-element') as { svg: string };
    const tamper = (path: string, bytes: Buffer) =>
      runAdmin(
        database.target,
        `update quire_media set bytes = decode('${bytes.toString('hex')}', 'hex'), size = ${bytes.length} where path = '${path.replace('/media/', '')}'`,
      );
    await tamper(hostile.path, Buffer.from(payload.svg));
    await tamper(kept.path, BROKEN);
    await onPostgres?.close();
    onPostgres = null;
    const copyDir = join(dir, 'copied');
    const file = join(copyDir, 'content.sqlite');
    let err = '';
    const errors = new PassThrough().on('data', (text) => (err += text));
    const code = await copyCommand(
      ['--from', database.url, '--to', file],
      { out: new PassThrough().resume(), err: errors },
      { searchIndexes: { folder: join(dir, 'indexes') } },
    );
    expect(code, err).toBe(0);
    let copied: RunningServer | null = null;
    try {
      copied = await startServer({ dbFile: file, port: 0, host: '127.0.0.1', editorName: 'tester', backups: false });
      const served = Buffer.from(await (await fetch(`${copied.origin}${hostile.path}`)).arrayBuffer());
      expect(svgLeftovers(served.toString(), BEACON)).toEqual([]);
      expect(readFileSync(under(join(copyDir, 'media', '.set-aside'), hostile.path)).toString()).toBe(payload.svg);
      expect(err).toContain(
        `media/${hostile.path.replace('/media/', '')} is an SVG of the source: it was cleaned as uploads are (script and outside references removed); the file as it was is kept in media/.set-aside/${hostile.path.replace('/media/', '')}\n`,
      );
      const asset = (await (await fetch(`${copied.origin}/api/media/${hostile.id}`)).json()) as Record<string, unknown>;
      expect(asset).toMatchObject(await describedAs(served));
      // Refused: set aside whole, no file, no asset.
      expect(readFileSync(under(join(copyDir, 'media', '.set-aside'), kept.path))).toEqual(BROKEN);
      expect(existsSync(under(join(copyDir, 'media'), kept.path))).toBe(false);
      expect((await fetch(`${copied.origin}/api/media/${kept.id}`)).status).toBe(404);
    } finally {
      await copied?.close();
    }
  });
});
