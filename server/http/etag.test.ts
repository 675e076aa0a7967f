import { describe, expect, it } from 'vitest';
import { etagOf, taggedJson } from './etag.js';

const TAG = /^"[A-Za-z0-9_-]{32}"$/;

describe('taggedJson', () => {
  const data = { rows: [{ id: 'a1', title: 'Über Café — ünïcödé 日本', n: 3 }], total: 1, filtered: 1 };

  it('sends the whole body, timings first, as UTF-8 bytes of its JSON', () => {
    const time = { total: 1.25, init: 0.5, filter: 0, data: 0.25, count: 0, format: 0.5 };
    const { bytes, etag } = taggedJson({ time, ...data });
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ time, ...data });
    expect(bytes.toString('utf8').startsWith('{"time":{"total":1.25')).toBe(true);
    expect(etag).toMatch(TAG);
  });

  it('tags the data, not the timings: the same data under other timings keeps its tag', () => {
    const first = taggedJson({ time: { total: 1 }, ...data });
    const second = taggedJson({ time: { total: 27.125, format: 3 }, ...data });
    expect(second.etag).toBe(first.etag);
    expect(second.bytes.equals(first.bytes)).toBe(false);
  });

  it('gives any change of the data another tag', () => {
    const base = taggedJson({ time: { total: 1 }, ...data }).etag;
    const changes = [
      { ...data, total: 2 },
      { ...data, rows: [{ ...data.rows[0], title: 'Uber Cafe' }] },
      { ...data, rows: [] },
      { rows: data.rows, total: 1 },
    ];
    const tags = changes.map((changed) => taggedJson({ time: { total: 1 }, ...changed }).etag);
    expect(new Set([base, ...tags]).size).toBe(changes.length + 1);
  });

  it('tags a body without timings (or with timings alone) by its bytes', () => {
    const plain = taggedJson(data);
    expect(JSON.parse(plain.bytes.toString('utf8'))).toEqual(data);
    expect(plain.etag).toBe(etagOf(JSON.stringify(data)));
    const onlyTime = taggedJson({ time: { total: 2 } });
    expect(JSON.parse(onlyTime.bytes.toString('utf8'))).toEqual({ time: { total: 2 } });
    expect(onlyTime.etag).toBe(taggedJson({ time: { total: 9 } }).etag);
    expect(onlyTime.etag).not.toBe(plain.etag);
    expect(taggedJson([1, 2]).etag).toBe(etagOf('[1,2]'));
  });
});
