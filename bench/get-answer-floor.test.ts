// Engine: SQLite only: the bench's naive floor server reads the test server's SQLite file, and its answer must be
// Quire's byte for byte.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedNews } from '../server/test-support/seed.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { answerFloor } from './get-answer-floor.mjs';

/**
 * The bench's get-answer floor stands for "a naive server giving Quire's answer": it is only that if
 * its answer is Quire's. Both read the same SQLite file here, so they must give the same bytes but
 * the timings, the same tag and the same headers.
 */
let quire: TestServer;
let floor: Server;
let floorBase: string;
let db: Database.Database;

beforeAll(async () => {
  quire = await startTestServer({ engine: 'sqlite' });
  await seedNews(quire, [{ title: 'Alpha one' }, { title: 'Bravo two', status: 'published' }]);
  const list = await (await fetch(`${quire.api}/cms/news?limit=1`)).json();
  db = new Database(quire.dbFile, { readonly: true });
  floor = createServer(answerFloor(db, list.columns));
  await new Promise<void>((listening) => floor.listen(0, '127.0.0.1', listening));
  floorBase = `http://127.0.0.1:${(floor.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((closed) => floor?.close(closed));
  db?.close();
  await quire?.dispose();
});

const withoutTime = (text: string) => {
  const { time, ...data } = JSON.parse(text);
  return { time, data };
};

describe('get-answer floor', () => {
  it("answers a get with Quire's answer: the same data, tag and headers", async () => {
    const ids = db.prepare('select id from news order by id').pluck().all() as string[];
    expect(ids.length).toBe(2);
    for (const id of ids) {
      const [ours, floors] = await Promise.all(
        [quire.api, `${floorBase}/api`].map((base) => fetch(`${base}/cms/news/${encodeURIComponent(id)}`)),
      );
      expect([ours.status, floors.status]).toEqual([200, 200]);
      const [ourText, floorText] = [await ours.text(), await floors.text()];
      const [our, theirs] = [withoutTime(ourText), withoutTime(floorText)];
      expect(theirs.data).toEqual(our.data);
      // The same members in the same order: the same JSON but for the timings' values.
      expect(floorText.replace(/^\{"time":\{[^}]*\}/, '')).toBe(ourText.replace(/^\{"time":\{[^}]*\}/, ''));
      expect(Object.keys(theirs.time)).toEqual(Object.keys(our.time));
      expect(floors.headers.get('etag')).toBe(ours.headers.get('etag'));
      const names = (response: Response) => [...response.headers.keys()].filter((name) => name !== 'date').sort();
      expect(names(floors)).toEqual(names(ours));
      const phases = (response: Response) => response.headers.get('server-timing')?.replace(/;dur=[\d.]+/g, '');
      expect(phases(floors)).toBe(phases(ours));
    }
  });

  it('answers anything else with a 404', async () => {
    expect((await fetch(`${floorBase}/api/cms/news/no-such-id`)).status).toBe(404);
    expect((await fetch(`${floorBase}/api/cms/news`)).status).toBe(404);
  });
});
