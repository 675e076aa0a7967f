import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentRow, ListResponse } from '../../common/api-contract.js';
import { offsetPageIds } from '../db/queries/list-order.js';
import { request } from '../test-support/api-scenario.js';
import { addContentType } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Lists ordered by a text column, on every engine, are in the order of the whole text, then `id`,
 * at every offset. On PostgreSQL the list indexes hold the text's first 200 characters (its order
 * key column) and a page past an offset is found by those and `id` alone, walking the index without
 * reading the table, unless the page holds a text of 200 characters or more: then the exact order is
 * walked. Texts here share their first 200 characters in groups whose id order is not their text
 * order, and sit on page boundaries, so a page found by the key alone would come out wrong.
 */

const LONG = 'L'.repeat(200);
const HEADLINES = [
  'Beta',
  `${LONG}zz`,
  'Alpha',
  null,
  `${LONG}`,
  `${LONG}aa`,
  'Gamma',
  `${LONG}m`,
  null,
  'Alpha',
  `${LONG}b`,
  'Delta',
  `${'K'.repeat(199)}`,
  `${LONG}zz`,
  'Epsilon',
  `${LONG}a`,
  'Zeta',
];

let server: TestServer;
let created: ContentRow[];
beforeAll(async () => {
  server = await startTestServer();
  await addContentType(server, 'posts', [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'headline', label: 'Headline', type: 'text', required: false },
  ]);
  created = [];
  // Created in this order, so ids (time-ordered) follow it, not the headlines' order.
  for (const [i, headline] of HEADLINES.entries()) {
    const { response, body } = await request(server, 'POST', '/cms/posts', {
      body: { name: `Post ${i}`, headline: headline ?? '' },
    });
    expect(response.status, JSON.stringify(body)).toBe(201);
    created.push(body.rows[0]);
  }
});
afterAll(() => server.dispose());

async function list(query: string): Promise<ListResponse> {
  const { response, body } = await request(server, 'GET', `/cms/posts?${query}`);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The exact order: nulls first ascending, then the whole text (ASCII here: code units are code points), then id. */
function sorted(desc: boolean): string[] {
  const compare = (a: ContentRow, b: ContentRow) => {
    const [x, y] = [a.headline as string | null, b.headline as string | null];
    if (x !== y) {
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  return [...created].sort((a, b) => (desc ? -compare(a, b) : compare(a, b))).map((row) => row.id);
}

describe('lists ordered by a text column', () => {
  it.each([false, true])('desc=%s: in the whole text order at every offset and page size', async (desc) => {
    const expected = sorted(desc);
    const base = `order=headline${desc ? '&desc=true' : ''}`;
    expect((await list(`${base}&limit=100`)).rows.map((row) => row.id)).toEqual(expected);
    for (const limit of [1, 2, 3]) {
      for (let offset = 1; offset < expected.length; offset++) {
        const page = await list(`${base}&limit=${limit}&offset=${offset}`);
        expect(
          page.rows.map((row) => row.id),
          `limit ${limit} offset ${offset}`,
        ).toEqual(expected.slice(offset, offset + limit));
      }
    }
  });

  it('never shows the order key columns in rows, lists or revisions', async () => {
    const id = created[1].id;
    const shown = [
      (await request(server, 'GET', `/cms/posts/${id}`)).body.rows[0],
      ...(await list('order=headline&limit=100&offset=2')).rows,
      ...(await list('limit=100')).rows,
      (
        await request(server, 'PUT', `/cms/posts/${id}`, {
          body: { name: 'Renamed', headline: created[1].headline as string },
        })
      ).body,
    ];
    for (const row of shown) expect(Object.keys(row).filter((key) => key.startsWith('quire_'))).toEqual([]);
    const revisions = await request(server, 'GET', `/cms/posts/${id}/revisions`);
    expect(revisions.response.status).toBe(200);
    expect(JSON.stringify(revisions.body)).not.toContain('quire_key');
  });
});

describe('on PostgreSQL, a page in a text order past an offset', () => {
  /** The plan of the page's ids: whether the index was walked alone, and whether the exact order ran. */
  async function planOf(desc: boolean, offset: number) {
    const db = server.database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const page = { order: 'headline', desc, orderByText: true, limit: 2, offset };
    const ids = db
      .selectFrom('posts')
      .select(sql.id('id').as('id'))
      .where(sql.id('id'), 'in', offsetPageIds(server.database.engine, db, 'posts', undefined, page))
      .compile();
    return db.connection().execute(async (connection) => {
      // The table is small: without these the planner would rather read it than walk an index.
      await sql`set enable_seqscan = off`.execute(connection);
      await sql`set enable_bitmapscan = off`.execute(connection);
      const explained = await connection.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>({
        ...ids,
        sql: `explain (analyze, format json) ${ids.sql}`,
      });
      await sql`reset enable_seqscan`.execute(connection);
      await sql`reset enable_bitmapscan`.execute(connection);
      const nodes = flatten(explained.rows[0]['QUERY PLAN'][0].Plan);
      const keyed = nodes.find((node) => node['Node Type'] === 'Index Only Scan');
      const exact = nodes.filter((node) => node['Node Type'] === 'Incremental Sort' || node['Node Type'] === 'Sort');
      return {
        indexAlone: keyed !== undefined && keyed['Heap Fetches'] === 0,
        exactRan: exact.some((node) => (node['Actual Loops'] ?? 0) > 0),
      };
    });
  }

  it('is found in the index alone unless it holds a text of 200 characters or more', async (context) => {
    if (server.engine !== 'postgres') context.skip('PostgreSQL only: SQLite indexes whole texts');
    await sql`vacuum posts`.execute(server.database.db as unknown as Kysely<unknown>);
    const expected = sorted(false);
    const long = (id: string) =>
      ((created.find((row) => row.id === id)?.headline as string | null)?.length ?? 0) >= 200;
    let alone = 0;
    let exact = 0;
    for (let offset = 1; offset < expected.length - 1; offset++) {
      const plan = await planOf(false, offset);
      const cut = expected.slice(offset, offset + 2).some(long);
      expect(plan, `offset ${offset}`).toEqual({ indexAlone: true, exactRan: cut });
      if (cut) exact++;
      else alone++;
    }
    expect(alone).toBeGreaterThan(3);
    expect(exact).toBeGreaterThan(3);
  });
});

interface PlanNode {
  'Node Type': string;
  'Heap Fetches'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}
