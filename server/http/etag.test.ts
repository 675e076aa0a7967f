import { describe, expect, it } from 'vitest';
import { etagOf, taggedJson, taggedJsonText } from './etag.js';

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

describe('taggedJsonText', () => {
  const columns = [
    { name: 'title', label: 'Title', type: 'text', options: [{ id: 'a', text: 'Ä' }] },
    { name: 'status', label: 'Status', type: 'select' },
  ];
  const body = (cols: object[]) => ({
    time: { total: 1.5 },
    total: 2,
    rows: [{ id: 'r1', title: 'Café' }],
    columns: cols,
    skipped: undefined,
    preview_path: null,
  });

  it('is the text of taggedJson, with the same tag, with or without the known columns', () => {
    const plain = taggedJson(body([...columns]));
    for (const known of [undefined, columns]) {
      const { text, etag } = taggedJsonText(body([...columns]), known);
      expect(text).toBe(plain.bytes.toString('utf8'));
      expect(text).toBe(JSON.stringify(body(columns)));
      expect(etag).toBe(plain.etag);
    }
  });

  it('serializes columns afresh when they are not exactly the known descriptors', () => {
    const changed = [{ ...columns[0], label: 'Heading' }, columns[1]];
    // The known descriptors' JSON is cached by the first call; a body with other objects must not get it.
    taggedJsonText(body([...columns]), columns);
    const { text } = taggedJsonText(body(changed), columns);
    expect(JSON.parse(text).columns[0].label).toBe('Heading');
    expect(JSON.parse(taggedJsonText(body([columns[0]]), columns).text).columns).toHaveLength(1);
  });
});
