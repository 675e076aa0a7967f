// Engine: PostgreSQL only: its PostgreSQL database goes away between a content-type change's commit and the reload.

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/**
 * A content-type change that committed is saved, even when the database goes away before the server
 * reloads its registry: the answer is the 2xx of the committed change, not a 503 saying
 * "not saved", and the server reloads the types by itself on its next request, as after another
 * server's change. The loss is made certain: the registry's reload fails as a lost connection does.
 */

const postgres = await postgresForTests();

const columns = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
];

/** The next registry reload fails the way a connection PostgreSQL dropped does. */
function loseTheDatabaseAtTheNextReload() {
  return vi
    .spyOn(ContentTypeRepository.prototype, 'listAll')
    .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
}

describe.skipIf(!postgres.available)(
  `a content-type change committed just before the database went away${skipNote(postgres)}`,
  () => {
    const database = useTestDatabase(postgres.url);
    let a: PostgresTestServer;
    let b: PostgresTestServer;

    beforeAll(async () => {
      a = await startPostgresTestServer(database().target);
      b = await startPostgresTestServer(database().target);
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });

    it('is answered as saved, and the types are reloaded on the next request', async () => {
      const lost = loseTheDatabaseAtTheNextReload();
      const created = await call(a, 'POST', '/cms-content', { title: 'Authors', columns });
      expect(lost).toHaveBeenCalled();
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ slug: 'authors', table: 'authors', title: 'Authors' });
      expect(created.body.columns.map((column: { name: string }) => column.name)).toEqual(['name', 'slug']);
      // The type is there for this server (reloaded now) and for the other one.
      for (const server of [a, b]) {
        const row = await call(server, 'POST', '/cms/authors', { name: `Writer ${server.api}` });
        expect(row.status, JSON.stringify(row.body)).toBe(201);
      }

      loseTheDatabaseAtTheNextReload();
      const born = { name: 'born', label: 'Born', type: 'number', required: false };
      const changed = await call(a, 'PUT', '/cms-content/authors', { title: 'Writers', columns: [...columns, born] });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ title: 'Writers', title_column: 'name' });
      expect(changed.body.columns.map((column: { name: string }) => column.name)).toEqual(['name', 'slug', 'born']);
      expect(changed.body.columns[2]).toMatchObject({ filterable: true, orderable: true });
      const withBorn = await call(a, 'POST', '/cms/authors', { name: 'Ursula', born: '1929' });
      expect(withBorn.status, JSON.stringify(withBorn.body)).toBe(201);
      expect(withBorn.body.rows[0].born).toBe(1929);

      loseTheDatabaseAtTheNextReload();
      const deleted = await call(a, 'DELETE', '/cms-content/authors?force=true');
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect((await call(a, 'GET', '/cms/authors')).status).toBe(404);
      expect((await call(b, 'GET', '/cms/authors')).status).toBe(404);
      expect(a.errors).toEqual([]);
    });
  },
);
