import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentRow, ListResponse } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { addContentType } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Lists put empty (null) values first in ascending order and last in descending order, on every
 * engine: SQLite does so by itself, PostgreSQL is told (`nulls first`) in the query and in the list
 * indexes, which must still serve the order. Many nulls and ties, so pages past an offset
 * (ids read from an index first) cross the boundary between nulls and values.
 */

const COLUMNS = ['starts', 'rank', 'kind', 'venue'] as const;
const ROWS = Array.from({ length: 30 }, (_, i) => ({
  name: `Event ${i}`,
  starts: i % 3 === 0 ? '' : `2025-0${1 + (i % 4)}-10 10:00:00`,
  rank: i % 4 === 1 ? '' : String((i * 7) % 5),
  kind: i % 5 < 2 ? '' : ['talk', 'workshop'][i % 2],
  venue: i % 2 === 0 ? '' : ['Hall', 'Annex', 'Garden'][i % 3],
}));

let server: TestServer;
let created: ContentRow[];
beforeAll(async () => {
  server = await startTestServer();
  await addContentType(server, 'events', [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'starts', label: 'Starts', type: 'datetime', required: false },
    { name: 'rank', label: 'Rank', type: 'number', required: false },
    {
      name: 'kind',
      label: 'Kind',
      type: 'select',
      required: false,
      options: [
        { id: 'talk', text: 'Talk' },
        { id: 'workshop', text: 'Workshop' },
      ],
    },
    { name: 'venue', label: 'Venue', type: 'text', required: false },
  ]);
  created = [];
  for (const row of ROWS) {
    const { response, body } = await request(server, 'POST', '/cms/events', { body: row });
    expect(response.status, JSON.stringify(body)).toBe(201);
    created.push(body.rows[0]);
  }
});
afterAll(() => server.dispose());

async function list(query: string): Promise<ListResponse> {
  const { response, body } = await request(server, 'GET', `/cms/events?${query}`);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The expected order: nulls before values ascending (after them descending), ties by id. */
function sorted(rows: ContentRow[], column: string, desc: boolean): string[] {
  const compare = (a: ContentRow, b: ContentRow) => {
    const [x, y] = [a[column], b[column]];
    if (x !== y) {
      if (x === null) return -1;
      if (y === null) return 1;
      return (x as string | number) < (y as string | number) ? -1 : 1;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  return [...rows].sort((a, b) => (desc ? -compare(a, b) : compare(a, b))).map((row) => row.id);
}

describe.each(COLUMNS)('order=%s', (column) => {
  it.each([false, true])('desc=%s: nulls first ascending, last descending, at every offset', async (desc) => {
    expect(created.some((row) => row[column] === null)).toBe(true);
    for (const filter of ['', `filter=${encodeURIComponent('kind=talk')}&`]) {
      const expected = filter ? created.filter((row) => row.kind === 'talk') : created;
      const base = `${filter}order=${column}${desc ? '&desc=true' : ''}`;
      const whole = await list(`${base}&limit=100`);
      expect(whole.rows.map((row) => row.id)).toEqual(sorted(expected, column, desc));
      for (const offset of [1, 4, 9, 10, 17]) {
        const page = await list(`${base}&limit=5&offset=${offset}`);
        expect(page.rows.map((row) => row.id)).toEqual(whole.rows.slice(offset, offset + 5).map((row) => row.id));
      }
    }
  });
});

describe('on PostgreSQL, the list indexes serve the order with its nulls', () => {
  it('orders by an indexed column without sorting, in both directions, text by its prefix', async (context) => {
    if (server.engine !== 'postgres') context.skip('PostgreSQL only: SQLite puts nulls first without being told');
    const db = server.database.db as unknown as Kysely<unknown>;
    // Planner costs favour a sort on a table this small; without sequential scans and sorts to
    // choose from, a plan without a Sort node shows an index gives exactly this order.
    await db.connection().execute(async (connection) => {
      await sql`set enable_seqscan = off`.execute(connection);
      await sql`set enable_sort = off`.execute(connection);
      for (const order of ['asc nulls first', 'desc nulls last']) {
        const direction = sql.raw(order.startsWith('asc') ? 'asc' : 'desc');
        const plan = await sql<{ 'QUERY PLAN': string }>`explain select * from events
          order by starts ${sql.raw(order)}, id ${direction} limit 5`.execute(connection);
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(text, text).toContain('Index Scan');
        expect(text, text).not.toContain('Sort');
      }
      // A text column's index holds its first 200 characters (its order key column): the list orders
      // by those first.
      for (const order of ['asc nulls first', 'desc nulls last']) {
        const direction = sql.raw(order.startsWith('asc') ? 'asc' : 'desc');
        const plan = await sql<{ 'QUERY PLAN': string }>`explain select * from events
          order by "quire_key:venue" ${sql.raw(order)}, venue ${sql.raw(order)}, id ${direction} limit 5`.execute(
          connection,
        );
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        // Rows come in the prefix's order from the index; only ties of the prefix are sorted.
        expect(text, text).toContain('Index Scan');
        expect(text, text).toContain('Presorted Key: "quire_key:venue"');
        expect(text, text).not.toMatch(/(^|->)\s*Sort {2}\(/m);
      }
      await sql`reset enable_seqscan`.execute(connection);
      await sql`reset enable_sort`.execute(connection);
    });
  });
});
