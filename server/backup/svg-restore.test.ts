// Engine: SQLite only: `quire restore` of a SQLite site's backup folder, whose media are files.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { svgLeftovers } from '../test-support/svg-payloads.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A backup is a folder anyone may have changed: its SVGs are cleaned as uploads are when it is
 * restored, the file as it was kept in `media/.set-aside/` and said in a line, and the library's
 * record of a cleaned one follows its file when the server starts.
 */

const BEACON = 'http://beacon.invalid:8';
const HOSTILE = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>fetch('${BEACON}/x')</script><rect width="40" height="20"/></svg>`,
);

let dir: string;
let server: TestServer | null = null;
const lines: string[] = [];
let hostile: { id: string; path: string };
let kept: { id: string; path: string; bytes: Buffer };

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
  await first.stop();
  // The backup's drawing changed after it was cleaned at upload: it carries script now.
  writeFileSync(join(dir, hostile.path), HOSTILE);
  const backup = await backupFile(dbFile);
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

  it('restores a clean drawing byte for byte, setting nothing aside', async () => {
    const served = Buffer.from(await (await fetch(`${server?.origin}${kept.path}`)).arrayBuffer());
    expect(served).toEqual(kept.bytes);
    const relative = kept.path.replace('/media/', '');
    expect(existsSync(join(dir, 'media', '.set-aside', ...relative.split('/')))).toBe(false);
    expect(lines.some((said) => said.includes(relative))).toBe(false);
  });
});
