import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { autocannonOptions, DISTINCT_WORKLOADS, requestStream, runDistinct } from './distinct-workloads.mjs';

interface Next {
  method: string;
  path: string;
  body?: string;
}

const keywords = { words: ['alpha', 'bravo', 'café', 'über'], pairs: ['alpha bravo'] };
const ids = ['a1', 'b2', 'c3', 'd4'];
const take = (workload: string, seed: number, count: number): Next[] => {
  const next = requestStream(workload, seed, { keywords, ids });
  return Array.from({ length: count }, () => next());
};

describe('distinct write workloads', () => {
  it('are in the distinct set, after the reads', () => {
    expect(DISTINCT_WORKLOADS).toEqual(['search', 'list', 'get', 'mixed', 'create', 'update']);
  });

  it('create: POSTs a different form every time, with a status and a date like the data', () => {
    const requests = take('create', 7, 500);
    expect(new Set(requests.map((r) => r.body)).size).toBe(500);
    for (const request of requests) {
      expect(request).toMatchObject({ method: 'POST', path: '/api/cms/news' });
      const form = new URLSearchParams(request.body);
      expect(form.get('title')).toMatch(/^\S+ \S+ \d+$/);
      expect(['published', 'draft', 'archived']).toContain(form.get('status'));
      expect(form.get('published_at')).toMatch(/^202[1-5]-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
  });

  it('update: PATCHes existing ids only, every body different', () => {
    const requests = take('update', 7, 500);
    expect(new Set(requests.map((r) => r.body)).size).toBe(500);
    const patched = new Set(requests.map((r) => r.path));
    expect(patched).toEqual(new Set(ids.map((id) => `/api/cms/news/${id}`)));
    expect(requests.every((r) => r.method === 'PATCH')).toBe(true);
  });

  it('sends every server the same sequence for a seed, and another for another seed', () => {
    expect(take('update', 3, 50)).toEqual(take('update', 3, 50));
    expect(take('create', 3, 50)).not.toEqual(take('create', 4, 50));
  });

  it("autocannon's requests keep the stream's method and form body", () => {
    const stats = { gets: 0, repeats: 0, seen: new Set() };
    const options = autocannonOptions('http://127.0.0.1:1', requestStream('update', 9, { keywords, ids }), stats);
    const request = options.requests[0].setupRequest({ headers: {} });
    expect(request).toMatchObject({
      method: 'PATCH',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(request.body).toBe(take('update', 9, 1)[0].body);
    expect(stats.gets).toBe(0);
  });
});

describe('runDistinct', () => {
  it('runs only the workloads asked, each on the stream it has in a whole run', async () => {
    const server = createServer((_req, res) => res.end('{}'));
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const context = { keywords: { words: ['alpha', 'bravo'], pairs: ['alpha bravo'] }, ids: ['1', '2', '3', '4'] };
    // A stand-in for autocannon: the first paths of the run's stream, with what the workload was.
    const paths = (options: { requests: { setupRequest: (request: object) => { path: string } }[] }) =>
      Array.from({ length: 5 }, () => options.requests[0].setupRequest({ headers: {} }).path);
    const run = (only?: string[]) =>
      runDistinct({
        base,
        ...context,
        load: async (options: never) => ({ paths: paths(options) }),
        warmUp: async () => {},
        only,
      });
    try {
      const whole = await run();
      const gets = await run(['get']);
      expect(Object.keys(whole)).toEqual(DISTINCT_WORKLOADS);
      expect(Object.keys(gets)).toEqual(['get']);
      expect(gets.get.paths).toEqual(whole.get.paths);
      expect(gets.get.paths.every((path: string) => path.startsWith('/api/cms/news/'))).toBe(true);
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});
