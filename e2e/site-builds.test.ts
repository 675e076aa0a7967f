import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../server/config/package-root.js';
import { request } from '../server/test-support/api-scenario.js';
import { pngImage } from '../server/test-support/sample-images.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';

/**
 * The examples in examples/ built with their real CLIs (Astro, Eleventy) against a running Quire,
 * then again from a `quire export` folder with the server stopped. Builds may reach this machine
 * only: a preload refuses (and reports) any other connection, and Astro's telemetry is off.
 */
const root = packageRoot();
const SITES = {
  astro: { cli: join(root, 'node_modules', 'astro', 'astro.js'), args: ['build'] },
  eleventy: { cli: join(root, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'), args: [] },
} as const;
type Site = keyof typeof SITES;

let server: TestServer;
let serverStopped = false;
let work: string;
let dbFile: string;
let image: string;
const published = { news: 'Harbour opens', article: 'Boats and sails' };
const drafts = { news: 'Secret plans', article: 'Unfinished article' };

/** Runs a command to its end; resolves with its exit code and everything it printed. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: '1',
        NODE_OPTIONS: `--import ${join(root, 'e2e', 'support', 'loopback-only.mjs')}`,
        NO_COLOR: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** `quire ...` from the sources, as a user would run it. */
function quire(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', join(root, 'server', 'cli.ts'), ...args], root, {
    NODE_OPTIONS: '',
  });
}

/**
 * Builds one example into a fresh folder: the example copied (so the build's caches stay in the
 * test's folder), node_modules linked to the project's, the TypeScript types regenerated with
 * `quire types` from the site's database.
 */
async function build(site: Site, label: string, env: Record<string, string>): Promise<string> {
  const copy = join(work, `${site}-${label}`);
  // Inside the copy: Astro's build imports its own output, which must find node_modules above it.
  const out = join(copy, 'site-out');
  cpSync(join(root, 'examples', site), copy, {
    recursive: true,
    filter: (path) => !/[\\/](?:node_modules|dist|_site|\.cache|\.astro)$/.test(path),
  });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  if (site === 'astro') {
    const types = await quire('types', '--db', dbFile, '--out', join(copy, 'src', 'quire-types.d.ts'));
    expect(types.code, types.output).toBe(0);
    // The loader and its helpers type-check against the generated types (the pages are .astro files,
    // which tsc does not read).
    const files = ['quire-loader.ts', 'quire-source.ts', 'quire-media.ts'].map((file) => join('src', file));
    const flags = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'esnext', '--moduleResolution', 'bundler'];
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(
      process.execPath,
      [tsc, ...flags, '--target', 'es2022', '--types', 'node', ...files],
      copy,
    );
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  }
  const { cli, args } = SITES[site];
  const outArgs = site === 'eleventy' ? [`--output=${out}`] : [];
  const result = await run(process.execPath, [cli, ...args, ...outArgs], copy, { ...env, SITE_OUT_DIR: out });
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toContain('loopback-only: refused');
  return out;
}

/** What every build must show: published rows, a page per row at its slug, the image; no drafts. */
function checkSite(out: string): void {
  const page = (path: string) => readFileSync(join(out, path, 'index.html'), 'utf8');
  const home = page('');
  expect(home).toContain(published.news);
  expect(home).toContain(published.article);
  expect(home).not.toContain(drafts.news);
  expect(home).not.toContain(drafts.article);
  expect(page('news/harbour-opens')).toContain(`<h1>${published.news}</h1>`);
  const article = page('articles/boats-and-sails');
  expect(article).toContain(`<h1>${published.article}</h1>`);
  expect(article).toContain(`<img src="${image}"`);
  expect(article).toContain('<li>sea</li>');
  expect(existsSync(join(out, 'news', 'secret-plans'))).toBe(false);
  expect(existsSync(join(out, 'articles', 'unfinished-article'))).toBe(false);
  // The image is in the site itself, byte for byte as uploaded.
  expect(readFileSync(join(out, ...image.split('/').filter(Boolean)))).toEqual(pngImage());
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'quire-sites-'));
  server = await startTestServer({ dir: join(work, 'quire') });
  dbFile = server.dbFile;
  const upload = new FormData();
  upload.append('file', new Blob([new Uint8Array(pngImage())], { type: 'image/png' }), 'boats.png');
  const uploaded = await fetch(`${server.api}/uploads`, { method: 'POST', body: upload });
  expect(uploaded.status).toBe(201);
  image = ((await uploaded.json()) as { path: string }).path;
  const row = (title: string, status: string) => ({ title, status, published_at: '2026-01-02 09:00:00' });
  for (const [table, body] of [
    ['news', row(published.news, 'published')],
    ['news', row(drafts.news, 'draft')],
    ['articles', { ...row(published.article, 'published'), image, tags: ['sea'], body: '# Boats' }],
    ['articles', { ...row(drafts.article, 'draft'), image }],
  ] as const) {
    const created = await request(server, 'POST', `/cms/${table}`, { json: body });
    expect(created.response.status, created.text).toBe(201);
  }
});

afterAll(async () => {
  if (server && !serverStopped) await server.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the example sites', () => {
  it('build with Astro and Eleventy from a running Quire', async () => {
    const live = { QUIRE_URL: server.origin };
    checkSite(await build('astro', 'live', live));
    checkSite(await build('eleventy', 'live', live));
  });

  it('build from a quire export folder with the server stopped', async () => {
    await server.stop();
    serverStopped = true;
    const exported = join(work, 'export');
    const result = await quire('export', '--db', dbFile, '--out', exported, '--published-only');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Exported 4 content types, 2 rows and 1 media files/);
    // Nothing listens at QUIRE_URL now: the builds read the folder only.
    const offline = { QUIRE_EXPORT: exported, QUIRE_URL: server.origin };
    checkSite(await build('astro', 'export', offline));
    checkSite(await build('eleventy', 'export', offline));
  });
});
