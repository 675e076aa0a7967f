// Engine: SQLite only: it edits the SQLite file outside the API, then restarts on it.

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A registry written outside the API (a restored or hand-edited database) whose column name is not
 * an identifier (`a.b` would reach SQL as `"a"."b"`): the server refuses such a registry when it
 * loads, saying which type and column.
 */
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.dispose();
});

function addColumnOutsideTheApi(file: string, name: string): void {
  const raw = new Database(file);
  try {
    raw.exec(`alter table news add column "${name}" text`);
    const { columns } = raw.prepare(`select columns from quire_content_types where slug = 'news'`).get() as {
      columns: string;
    };
    const changed = [...JSON.parse(columns), { name, label: 'Dotted', type: 'text', required: false }];
    raw.prepare(`update quire_content_types set columns = ? where slug = 'news'`).run(JSON.stringify(changed));
  } finally {
    raw.close();
  }
}

describe('a registry column whose name is not an identifier', () => {
  it('stops the server from starting, naming the type and the column', async () => {
    const first = await startTestServer();
    servers.push(first);
    const created = await request(first, 'POST', '/cms/news', {
      body: { title: 'Before', status: 'draft', published_at: '2025-01-01 10:00:00' },
    });
    expect(created.response.status).toBe(201);
    await first.stop();
    addColumnOutsideTheApi(first.dbFile, 'a.b');

    await expect(startTestServer({ dir: first.dir, dbFile: first.dbFile })).rejects.toThrow(
      'Content type news: column "a.b" must be 1 to 63 lower-case letters, digits or _, starting with a letter',
    );
  });
});
