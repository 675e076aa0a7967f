import { describe, expect } from 'vitest';
import { runScenarios } from '../test-support/api-scenario.js';
import { refusedUnchanged, runRawScenarios } from '../test-support/hostile-http.js';
import { DEFAULT_BODY_LIMIT, MAX_FORM_PARAMETERS } from './body-parsing.js';
import { MAX_JSON_DEPTH, MAX_JSON_ENTRIES, MAX_QUERY_PARAMETERS } from './untrusted-input.js';

/**
 * Hostile input over real HTTP: every refusal has its exact status and code and changes nothing
 * (the whole database compared before and after; rows counted through the API match the tables).
 */

const valid = 'title=Hello&status=draft&published_at=2025-01-01%2010:00:00';
const validJson = { title: 'Hello', status: 'draft', published_at: '2025-01-01 10:00:00' };
const formType = { 'content-type': 'application/x-www-form-urlencoded' };
const jsonType = { 'content-type': 'application/json' };

describe('hostile bodies', () => {
  runScenarios([
    {
      name: `a form body over ${DEFAULT_BODY_LIMIT} bytes: 413`,
      method: 'POST',
      url: '/cms/news',
      body: `${valid}&meta[description]=${'x'.repeat(DEFAULT_BODY_LIMIT)}`,
      expectedStatus: 413,
      ...refusedUnchanged(413, 'payload_too_large', {
        also: (body) => expect(body.error.detail).toEqual({ code: 'too_large', limit: DEFAULT_BODY_LIMIT }),
      }),
    },
    {
      name: `a JSON body over ${DEFAULT_BODY_LIMIT} bytes: 413`,
      method: 'POST',
      url: '/cms/news',
      json: { ...validJson, meta: { description: 'x'.repeat(DEFAULT_BODY_LIMIT) } },
      expectedStatus: 413,
      ...refusedUnchanged(413, 'payload_too_large', {
        also: (body) => expect(body.error.detail).toEqual({ code: 'too_large', limit: DEFAULT_BODY_LIMIT }),
      }),
    },
    {
      name: `more than ${MAX_FORM_PARAMETERS} form parameters: 413`,
      method: 'POST',
      url: '/cms/news',
      body: `${valid}${'&x=1'.repeat(MAX_FORM_PARAMETERS)}`,
      expectedStatus: 413,
      ...refusedUnchanged(413, 'payload_too_large'),
    },
    {
      name: `more than ${MAX_JSON_ENTRIES} JSON values: 413`,
      method: 'POST',
      url: '/cms/news',
      json: { ...validJson, tags: Array.from({ length: MAX_JSON_ENTRIES }, (_, i) => `t${i}`) },
      expectedStatus: 413,
      ...refusedUnchanged(413, 'payload_too_large'),
    },
    {
      name: 'form nesting deeper than meta[title]: 400',
      method: 'POST',
      url: '/cms/news',
      body: `${valid}&meta[title][x]=1`,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: `JSON nested more than ${MAX_JSON_DEPTH} levels: 400`,
      method: 'POST',
      url: '/cms/news',
      body: `{"title":"x","status":"draft","published_at":"2025-01-01 10:00:00","meta":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`,
      headers: jsonType,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'JSON nested 200 000 levels deep: 400, the server stays up',
      method: 'POST',
      url: '/cms/news',
      body: `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
      headers: jsonType,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    ...[
      '__proto__[polluted]=1',
      '__proto__=x',
      'constructor[prototype][polluted]=1',
      'constructor=x',
      'prototype=x',
      'meta[__proto__]=x',
      '%5F%5Fproto%5F%5F=x',
    ].map((pair) => ({
      name: `a form key ${pair.split('=')[0]}: 400`,
      method: 'POST' as const,
      url: '/cms/news',
      body: `${valid}&${pair}`,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request', {
        also: () => expect(({} as Record<string, unknown>).polluted).toBeUndefined(),
      }),
    })),
    ...[
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '{"meta":{"prototype":"x"}}',
    ].map((extra) => ({
      name: `a JSON key in ${extra}: 400`,
      method: 'POST' as const,
      url: '/cms/news',
      body: JSON.stringify(validJson).replace(/}$/, `,"x":${extra}}`),
      headers: jsonType,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request', {
        also: () => expect(({} as Record<string, unknown>).polluted).toBeUndefined(),
      }),
    })),
    {
      name: 'a text/plain body: 415',
      method: 'POST',
      url: '/cms/news',
      body: valid,
      headers: { 'content-type': 'text/plain' },
      expectedStatus: 415,
      ...refusedUnchanged(415, 'unsupported_media_type'),
    },
    {
      name: 'a multipart body on a row route: 415',
      method: 'POST',
      url: '/cms/news',
      body: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n--b--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      expectedStatus: 415,
      ...refusedUnchanged(415, 'unsupported_media_type'),
    },
    {
      name: 'a form in ISO-8859-1: 415 (bodies are UTF-8)',
      method: 'POST',
      url: '/cms/news',
      body: valid,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
      expectedStatus: 415,
      ...refusedUnchanged(415, 'unsupported_media_type'),
    },
    {
      name: 'JSON in UTF-16: 415',
      method: 'POST',
      url: '/cms/news',
      body: JSON.stringify(validJson),
      headers: { 'content-type': 'application/json; charset=utf-16' },
      expectedStatus: 415,
      ...refusedUnchanged(415, 'unsupported_media_type'),
    },
    {
      name: 'an unknown charset: 415',
      method: 'POST',
      url: '/cms/news',
      body: valid,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=klingon' },
      expectedStatus: 415,
      ...refusedUnchanged(415, 'unsupported_media_type'),
    },
    {
      name: 'a gzip-encoded body: 415',
      method: 'POST',
      url: '/cms/news',
      body: valid,
      headers: { ...formType, 'content-encoding': 'gzip' },
      expectedStatus: 415,
      ...refusedUnchanged(415, 'unsupported_media_type'),
    },
    {
      name: 'a form body with a truncated percent-encoding: 400',
      method: 'POST',
      url: '/cms/news',
      body: `${valid}&meta[title]=%E0%A4%A`,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'a form body whose percent-encoding is not UTF-8: 400',
      method: 'POST',
      url: '/cms/news',
      body: 'title=%FF%FE&status=draft&published_at=2025-01-01%2010:00:00',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'malformed JSON: 400',
      method: 'POST',
      url: '/cms/news',
      body: '{"title": "x",',
      headers: jsonType,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'a JSON string instead of an object: 400',
      method: 'POST',
      url: '/cms/news',
      body: '"title"',
      headers: jsonType,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'a form field sent twice: 400 naming the field',
      method: 'POST',
      url: '/cms/news',
      body: `${valid}&title=Other`,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'validation_failed', {
        also: (body) => expect(body.error.fields).toEqual({ title: 'was sent more than once' }),
      }),
    },
    {
      name: 'a form field sent as title[]: 400',
      method: 'POST',
      url: '/cms/news',
      body: 'title[]=a&title[]=b&status=draft&published_at=2025-01-01%2010:00:00',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'validation_failed'),
    },
    {
      name: 'a JSON key sent twice: 400 naming the field',
      method: 'POST',
      url: '/cms/news',
      body: '{"title":"a","status":"draft","published_at":"2025-01-01 10:00:00","title":"b"}',
      headers: jsonType,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'validation_failed', {
        also: (body) => expect(body.error.fields).toEqual({ title: 'was sent more than once' }),
      }),
    },
    {
      name: 'a JSON array where one value is expected: 400',
      method: 'POST',
      url: '/cms/news',
      json: { ...validJson, title: ['a', 'b'] },
      expectedStatus: 400,
      ...refusedUnchanged(400, 'validation_failed'),
    },
    {
      name: 'a JSON object where one value is expected: 400',
      method: 'POST',
      url: '/cms/news',
      json: { ...validJson, status: { $ne: 'x' } },
      expectedStatus: 400,
      ...refusedUnchanged(400, 'validation_failed'),
    },
  ]);
});

describe('hostile bodies as raw bytes', () => {
  runRawScenarios([
    {
      name: 'a form body that is not valid UTF-8: 400',
      request: {
        method: 'POST',
        path: '/api/cms/news',
        headers: formType,
        body: Buffer.concat([Buffer.from('title=caf'), Buffer.from([0xe9]), Buffer.from('&status=draft')]),
      },
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'a JSON body that is not valid UTF-8: 400',
      request: {
        method: 'POST',
        path: '/api/cms/news',
        headers: jsonType,
        body: Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      },
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'a body with no Content-Type: 415',
      request: { method: 'POST', path: '/api/cms/news', body: valid },
      expectedStatus: 415,
      expectedCode: 'unsupported_media_type',
    },
    {
      name: 'a body shorter than its Content-Length (cut off): 400',
      bytes: `POST /api/cms/news HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n${valid}`,
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'a malformed chunked body: 400',
      bytes: `POST /api/cms/news HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${valid}\r\n0\r\n\r\n`,
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
  ]);
});

describe('hostile URLs', () => {
  runScenarios([
    {
      name: 'a parameter sent twice where one is expected: 400',
      url: '/cms/news?limit=1&limit=2',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'malformed percent-encoding in the query: 400',
      url: '/cms/news?filter=title%3D%E0%A4%A',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'percent-encoding that is not UTF-8 in the query: 400',
      url: '/cms/news?filter=title%3D%FF',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'a __proto__ query parameter: 400',
      url: '/cms/news?__proto__=x',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: `more than ${MAX_QUERY_PARAMETERS} query parameters: 400`,
      url: `/cms/news?${'_=1&'.repeat(MAX_QUERY_PARAMETERS)}limit=1`,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'malformed percent-encoding in the path: 400',
      url: '/cms/news/%E0%A4%A',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'a NUL in the path: 400',
      method: 'DELETE',
      url: '/cms/news/x%00y',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'a path that climbs out with encoded dots and slashes: 400 (not in normal form)',
      url: '/cms/..%2F..%2Fetc%2Fpasswd',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'SQL in an order parameter: 400',
      url: `/cms/news?order=${encodeURIComponent('title; drop table news')}`,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
  ]);
});

describe('SQL text is data', () => {
  const sqlTitle = `Robert'); DROP TABLE news; -- " OR 1=1 /*`;
  let createdId = '';
  runScenarios([
    {
      name: 'SQL in a field is stored verbatim',
      method: 'POST',
      url: '/cms/news',
      body: { title: sqlTitle, status: 'draft', published_at: '2025-01-01 10:00:00', 'meta[keywords]': "' OR ''='" },
      expectedStatus: 201,
      expect(body) {
        createdId = body.id;
        expect(body.rows[0].title).toBe(sqlTitle);
        expect(body.rows[0].meta.keywords).toBe("' OR ''='");
      },
    },
    {
      name: 'it reads back verbatim and the table is intact',
      url: '/cms/news',
      expectedStatus: 200,
      expect(body) {
        expect(body.total).toBe(1);
        expect(body.rows.find((row: any) => row.id === createdId).title).toBe(sqlTitle);
      },
    },
    {
      name: 'SQL in a filter value matches literally, nothing more',
      url: `/cms/news?filter=${encodeURIComponent("title=' OR '1'='1")}`,
      expectedStatus: 200,
      expect: (body) => expect(body.filtered).toBe(0),
    },
    {
      name: 'SQL in a search keyword matches literally',
      url: `/cms/news?filter=${encodeURIComponent("search='); DROP TABLE news")}`,
      expectedStatus: 200,
      expect: (body) => expect(body.filtered).toBe(1),
    },
    {
      name: 'SQL in an id is just an unknown id',
      method: 'DELETE',
      url: `/cms/news/${encodeURIComponent("x' OR '1'='1")}`,
      expectedStatus: 404,
      ...refusedUnchanged(404, 'not_found'),
    },
    {
      name: 'SQL in a content type name is just an unknown type',
      url: `/cms/${encodeURIComponent('news; drop table news')}`,
      expectedStatus: 404,
      ...refusedUnchanged(404, 'not_found'),
    },
  ]);
});
