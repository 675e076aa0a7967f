import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from './config/package-root.js';
import { addDemoContent } from './content/demo-content.js';
import { request } from './test-support/api-scenario.js';
import { startTestServer } from './test-support/test-server.js';

/** `quire serve --demo`: the demo rows are in before the server answers anyone. */

const dir = mkdtempSync(join(tmpdir(), 'quire-demo-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A port no one listens on now (the server is told it, so a client can knock before it listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The first answer the address gives, asking again at once while nothing listens there. */
async function firstAnswer(url: string, child: ChildProcess): Promise<{ status: number; body: any }> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      return { status: response.status, body: await response.json() };
    } catch {
      // Not listening yet: knock again.
    }
  }
}

describe('quire serve --demo', () => {
  it('answers its first request with every demo row already there', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        join(packageRoot(), 'dist', 'server', 'cli.js'),
        'serve',
        '--db',
        join(dir, 'demo.sqlite'),
        '--port',
        String(port),
        '--demo',
        '--no-backups',
      ],
      {
        cwd: packageRoot(),
        env: { ...process.env, QUIRE_DB: '', QUIRE_DATABASE_URL: '', QUIRE_PORT: '', QUIRE_HOST: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    const first = await firstAnswer(`http://127.0.0.1:${port}/api/cms/news?limit=1`, child);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(36);
    const categories = await fetch(`http://127.0.0.1:${port}/api/cms/categories?limit=1`);
    expect(((await categories.json()) as { total: number }).total).toBe(6);
  });

  it('adds nothing, and fails nothing, on a site that chose another starter set', async () => {
    const server = await startTestServer();
    try {
      const chosen = await request(server, 'POST', '/starters', { json: { set: 'blog' } });
      expect(chosen.response.status, chosen.text).toBe(200);
      expect(await addDemoContent(server.services.registry, server.services.rows)).toBe(0);
      expect((await request(server, 'GET', '/cms/posts')).body.total).toBe(0);
    } finally {
      await server.dispose();
    }
  });
});
