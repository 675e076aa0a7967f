import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverChildEntry } from './server-child-entry-choice.js';
import type { ChildMessage, ServerChildOptions } from './server-child-protocol.js';

const dist = fileURLToPath(new URL('../../dist/electron/', import.meta.url));
const choice = join(dist, 'server-child', 'server-child-entry-choice.js');
/** Electron's `process.parentPort` over Node's IPC channel, as the desktop stand-in gives it. */
const shim = new URL('../../e2e/support/electron-stand-in/parent-port-shim.mjs', import.meta.url).href;

// The built child, as the desktop app forks it: needs `node scripts/build.mjs` (npm test builds it first).
describe.skipIf(!existsSync(join(dist, 'bundle', 'server-child.cjs')))('the desktop server child bundle', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-child-bundle-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is what the built app forks', () => {
    expect(serverChildEntry(pathToFileURL(choice).href)).toBe(
      join(dist, 'server-child', 'server-child-bundle-main.js'),
    );
  });

  it('serves the database in its own process and stops cleanly', async () => {
    const cacheFolder = join(dir, 'user-data', 'code-cache');
    const child = fork(join(dist, 'server-child', 'server-child-bundle-main.js'), [], {
      execArgv: ['--import', shim],
      stdio: 'ignore',
      env: { ...process.env, QUIRE_CODE_CACHE_FOLDER: cacheFolder },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const next = () => new Promise<ChildMessage>((resolve) => child.once('message', (m) => resolve(m as ChildMessage)));
    try {
      const options: ServerChildOptions = {
        dbFile: join(dir, 'content.sqlite'),
        port: 0,
        host: '127.0.0.1',
        editorName: 'ana',
        editorDir: null,
      };
      const ready = next();
      child.send({ type: 'start', options });
      const first = await ready;
      if (first.type !== 'ready') throw new Error(`not ready: ${JSON.stringify(first)}`);
      expect(first.dbFile).toBe(options.dbFile);
      const created = await fetch(`${first.origin}/api/cms/news`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ title: 'From the bundle', status: 'draft', published_at: '2025-01-02 03:04:05' }),
      });
      expect(created.status).toBe(201);
      // An SVG is cleaned in a worker the bundle starts from the file beside it.
      const form = new FormData();
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="4" height="3"/></svg>';
      form.append('file', new Blob([svg], { type: 'image/svg+xml' }), 'drawing.svg');
      const uploaded = await fetch(`${first.origin}/api/uploads`, { method: 'POST', body: form });
      const asset = (await uploaded.json()) as { path: string };
      expect(uploaded.status, JSON.stringify(asset)).toBe(201);
      expect(await (await fetch(`${first.origin}${asset.path}`)).text()).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="3"/></svg>\n',
      );
      // Its variants are made in the image process the bundle starts from the file beside it.
      const variant = await fetch(`${first.origin}${asset.path}?w=2&format=png`);
      expect(variant.status).toBe(200);
      // A PNG's width is the big-endian word at byte 16 (its IHDR chunk).
      expect(Buffer.from(await variant.arrayBuffer()).readUInt32BE(16)).toBe(2);
      const stopped = next();
      child.send({ type: 'stop' });
      expect(await stopped).toEqual({ type: 'stopped' });
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
