import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentRow, ListResponse } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { seedNews } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Pages past an offset (read as ids from an index first, then the page's rows) are exactly the
 * slices of the whole list, in every order, direction and filter, with exact `total` and `filtered`
 * Many ties (titles, dates, statuses), so the `id` tie-breaker decides often.
 */

const STATUSES = ['published', 'draft', 'archived'];
const ROWS = Array.from({ length: 47 }, (_, i) => ({
  title: ['Harbour', 'Budget', 'Über', 'café'][i % 4],
  status: STATUSES[(i * 7) % 3 === 0 ? 0 : i % 3],
  published_at: `2025-0${1 + (i % 3)}-0${1 + (i % 2)} 10:00:00`,
}));

let server: TestServer;
let seeded: ContentRow[];
beforeAll(async () => {
  server = await startTestServer();
  seeded = await seedNews(server, ROWS);
});
afterAll(() => server.dispose());

async function list(query: string): Promise<ListResponse> {
  const { response, body } = await request(server, 'GET', `/cms/news?${query}`);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

const ORDERS = ['id', 'title', 'slug', 'status', 'published_at', 'created_at', 'updated_at'];
describe.each([null, ...STATUSES])('filter status=%s', (status) => {
  const filter = status ? `filter=${encodeURIComponent(`status=${status}`)}&` : '';
  it.each(ORDERS.flatMap((order) => [false, true].map((desc) => ({ order, desc }))))(
    'order $order, desc $desc: pages at every offset are slices of the whole list',
    async ({ order, desc }) => {
      const base = `${filter}order=${order}${desc ? '&desc=true' : ''}`;
      const whole = await list(`${base}&limit=1000`);
      const expected = status ? seeded.filter((row) => row.status === status) : seeded;
      expect(whole.total).toBe(seeded.length);
      expect(whole.filtered).toBe(expected.length);
      expect(whole.rows.map((row) => row.id).sort()).toEqual(expected.map((row) => row.id).sort());
      // The whole list is in the requested order, ties broken by id in the same direction.
      const key = (row: ContentRow) => [String(row[order] ?? ''), String(row.id)] as const;
      for (let i = 1; i < whole.rows.length; i++) {
        const [a, b] = [key(whole.rows[i - 1]), key(whole.rows[i])];
        const cmp = a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
        expect(desc ? -cmp : cmp, `${a} then ${b}`).toBeLessThan(0);
      }
      for (const offset of [1, 5, 13, whole.rows.length - 1, whole.rows.length, whole.rows.length + 3]) {
        const page = await list(`${base}&limit=6&offset=${offset}`);
        expect(page.rows.map((row) => row.id)).toEqual(whole.rows.slice(offset, offset + 6).map((row) => row.id));
        expect([page.total, page.filtered]).toEqual([whole.total, whole.filtered]);
      }
    },
  );
});
