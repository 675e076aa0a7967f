import { describe, expect, it } from 'vitest';
import {
  checkFormPairs,
  checkJsonBody,
  duplicateJsonKey,
  MAX_JSON_DEPTH,
  MAX_JSON_ENTRIES,
  parseJsonField,
} from './untrusted-input.js';

describe('checkFormPairs', () => {
  it('accepts well-formed pairs, empty values, + for spaces and encoded UTF-8', () => {
    expect(checkFormPairs('title=Hello+world&meta%5Btitle%5D=%C3%BCber&empty=&flag', 'body')).toBeNull();
  });

  it('refuses malformed percent-encoding in names and values', () => {
    for (const text of ['a=%', 'a=%G1', 'a=%E0%A4%A', 'a=%FF', '%ZZ=1', 'a=%C3%28']) {
      expect(checkFormPairs(text, 'body')?.message, text).toMatch(/percent-encoding/);
    }
  });

  it('refuses __proto__, constructor and prototype at any level, encoded or not', () => {
    for (const text of [
      '__proto__=1',
      '__proto__[x]=1',
      'a[__proto__]=1',
      'constructor=1',
      'a[b][prototype]=1',
      '%5F%5Fproto%5F%5F=1',
      'meta%5Bconstructor%5D=x',
    ]) {
      expect(checkFormPairs(text, 'body')?.message, text).toMatch(/reserved name/);
    }
  });

  it('does not mistake names that merely contain a reserved word', () => {
    expect(checkFormPairs('constructors=1&my__proto__=1&prototype_id=2', 'body')).toBeNull();
  });

  it('counts parameters against the limit it is given', () => {
    expect(checkFormPairs('a=1&b=2&c=3', 'query string', 3)).toBeNull();
    expect(checkFormPairs('a=1&b=2&c=3&d=4', 'query string', 3)?.message).toMatch(/more than 3/);
  });
});

describe('checkJsonBody', () => {
  it('accepts an ordinary write body', () => {
    expect(checkJsonBody({ title: 'x', meta: { title: 'y' }, tags: ['a', 'b'] })).toBeNull();
  });

  it('refuses reserved keys, even nested or inside arrays', () => {
    for (const text of ['{"__proto__":{"x":1}}', '{"meta":{"constructor":"x"}}', '{"a":[{"prototype":1}]}']) {
      expect(checkJsonBody(JSON.parse(text))?.code, text).toBe('bad_request');
    }
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels without recursing`, () => {
    expect(checkJsonBody(JSON.parse(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`))).toBeNull();
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(checkJsonBody(deep)?.message).toMatch(/nested/);
  });

  it(`refuses more than ${MAX_JSON_ENTRIES} values with a 413`, () => {
    const many = Object.fromEntries(Array.from({ length: MAX_JSON_ENTRIES + 1 }, (_, i) => [`k${i}`, i]));
    expect(checkJsonBody(many)?.status).toBe(413);
  });
});

describe('duplicateJsonKey', () => {
  it('finds a key given twice in one object', () => {
    expect(duplicateJsonKey('{"title":"a","status":"draft","title":"b"}')).toBe('title');
    expect(duplicateJsonKey('{"meta":{"title":"a","title":"b"}}')).toBe('title');
    expect(duplicateJsonKey('{"t\\u0069tle":"a","title":"b"}')).toBe('title');
  });

  it('allows the same key in different objects, and keys that appear as values', () => {
    expect(duplicateJsonKey('{"title":"title","meta":{"title":"x"},"list":[{"a":1},{"a":2}]}')).toBeNull();
    expect(duplicateJsonKey('{"a":"he said \\"a\\":", "b":["a","a"]}')).toBeNull();
  });
});

describe('parseJsonField (JSON inside a form field, with the limits of a JSON body)', () => {
  /** An array nested `levels` deep: `[[...]]`. */
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('returns the parsed value of well-formed JSON', () => {
    const text = '[{"name":"status","options":[{"id":"a","text":"A"}]}]';
    expect(parseJsonField(text, 'columns')).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('counts depth from the top of the body: the field is the first level', () => {
    expect(parseJsonField(nested(MAX_JSON_DEPTH - 1), 'columns').ok).toBe(true);
    const refused = parseJsonField(nested(MAX_JSON_DEPTH), 'columns');
    expect(refused.ok).toBe(false);
    // The same value as a JSON body member is refused too, at the same level.
    expect(checkJsonBody({ columns: JSON.parse(nested(MAX_JSON_DEPTH)) })?.code).toBe('bad_request');
    expect(checkJsonBody({ columns: JSON.parse(nested(MAX_JSON_DEPTH - 1)) })).toBeNull();
  });

  it('refuses a 4,000-deep value without recursing, naming the field', () => {
    const result = parseJsonField(`[{"options":[{"id":"a","text":${nested(4000)}}]}]`, 'columns');
    expect(result.ok || result.error).toMatchObject({ status: 400, code: 'bad_request' });
    expect(result.ok || result.error.message).toMatch(
      new RegExp(`JSON in columns is nested more than ${MAX_JSON_DEPTH} levels`),
    );
  });

  it(`refuses more than ${MAX_JSON_ENTRIES} values with a 413, the field counting as one as in a body`, () => {
    const values = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => i));
    expect(parseJsonField(values(MAX_JSON_ENTRIES - 1), 'columns').ok).toBe(true);
    const refused = parseJsonField(values(MAX_JSON_ENTRIES), 'columns');
    expect(refused.ok || refused.error.status).toBe(413);
  });

  it('refuses reserved keys at any level', () => {
    for (const text of [
      '{"__proto__":{}}',
      '[{"options":[{"id":"a","text":"A","constructor":1}]}]',
      '[{"prototype":1}]',
    ]) {
      const result = parseJsonField(text, 'columns');
      expect(result.ok || result.error.message, text).toMatch(/JSON in columns uses the reserved name/);
    }
  });

  it('refuses a key given twice in one object, which JSON.parse would silently collapse', () => {
    const result = parseJsonField('[{"name":"a","label":"A","name":"b"}]', 'columns');
    expect(result.ok || result.error).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/"name" twice/),
    });
  });

  it('refuses malformed JSON, naming the field', () => {
    const result = parseJsonField('[{"name":', 'columns');
    expect(result.ok || result.error).toMatchObject({ status: 400, message: 'columns is not valid JSON' });
  });
});
