import { describe, expect, vi } from 'vitest';
import { runScenarios } from '../test-support/api-scenario.js';
import { countRows } from '../test-support/seed.js';
import type { TestServer } from '../test-support/test-server.js';

const valid = 'title=Hello&status=draft&published_at=2025-01-01%2010:00:00';

/** Every failure has one shape: { error: { status, code, message[, fields] } }, never a stack. */
function expectErrorShape(status: number, code: string) {
  return (body: any, response: Response) => {
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error.status).toBe(status);
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.message).not.toMatch(/\.ts:|\.js:|at .*\(|SQLITE/);
  };
}

describe('errors', () => {
  runScenarios([
    {
      name: 'unknown content type: 404',
      url: '/cms/nope',
      expectedStatus: 404,
      expect: expectErrorShape(404, 'not_found'),
    },
    {
      name: 'unknown row: 404',
      url: '/cms/news/nope',
      expectedStatus: 404,
      expect: expectErrorShape(404, 'not_found'),
    },
    {
      name: 'unknown API route: 404',
      url: '/nothing/here',
      expectedStatus: 404,
      expect: expectErrorShape(404, 'not_found'),
    },
    {
      name: 'too many path segments: 404',
      url: '/cms/news/a/b',
      expectedStatus: 404,
      expect: expectErrorShape(404, 'not_found'),
    },
    {
      name: 'wrong method: 405 with an Allow header',
      method: 'DELETE',
      url: '/cms/news',
      expectedStatus: 405,
      expect(body, response) {
        expectErrorShape(405, 'method_not_allowed')(body, response);
        expect(response.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
      },
    },
    {
      name: 'OPTIONS lists the allowed methods',
      method: 'OPTIONS',
      url: '/cms/news/x',
      expectedStatus: 204,
      expect(_body, response) {
        expect(response.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
      },
    },
    {
      name: 'validation failure: 400 with fields',
      method: 'POST',
      url: '/cms/news',
      body: 'title=',
      expectedStatus: 400,
      expect(body, response) {
        expectErrorShape(400, 'validation_failed')(body, response);
        expect(body.error.fields).toMatchObject({ title: 'is required' });
      },
    },
    {
      name: 'malformed JSON: 400, nothing written',
      method: 'POST',
      url: '/cms/news',
      body: '{"title": ',
      headers: { 'content-type': 'application/json' },
      expectedStatus: 400,
      async expect(body, response, server) {
        expectErrorShape(400, 'bad_request')(body, response);
        expect(await countRows(server, 'news')).toBe(0);
      },
    },
    {
      name: 'a JSON body that is not an object: 400',
      method: 'POST',
      url: '/cms/news',
      json: ['title'],
      expectedStatus: 400,
      expect: expectErrorShape(400, 'bad_request'),
    },
    {
      name: 'unsupported content type: 415, nothing written',
      method: 'POST',
      url: '/cms/news',
      body: valid,
      headers: { 'content-type': 'text/plain' },
      expectedStatus: 415,
      async expect(body, response, server) {
        expectErrorShape(415, 'unsupported_media_type')(body, response);
        expect(await countRows(server, 'news')).toBe(0);
      },
    },
    {
      name: 'body larger than 1 MiB: 413, nothing written',
      method: 'POST',
      url: '/cms/news',
      body: `${valid}&meta[description]=${'x'.repeat(1024 * 1024)}`,
      expectedStatus: 413,
      async expect(body, response, server) {
        expectErrorShape(413, 'payload_too_large')(body, response);
        expect(await countRows(server, 'news')).toBe(0);
      },
    },
    {
      name: 'conflict: 409',
      method: 'POST',
      url: '/cms/news/taken',
      body: valid,
      async before(server) {
        await server.services.rows.create(
          server.services.registry.requireByTable('news'),
          { title: 'First', status: 'draft', published_at: '2025-01-01 10:00:00' },
          'taken',
        );
      },
      expectedStatus: 409,
      expect: expectErrorShape(409, 'conflict'),
    },
  ]);
});

/**
 * Makes the row service fail the way an unexpected fault would (a disk error, a bug): the
 * stand-in for every 500. Once per server; the failures stay for the rest of its scenarios.
 */
function failEverything(server: TestServer): void {
  const fault = () => Promise.reject(new Error('disk I/O error'));
  for (const method of ['list', 'get', 'create', 'update', 'delete'] as const) {
    if (!vi.isMockFunction(server.services.rows[method]))
      vi.spyOn(server.services.rows, method).mockImplementation(fault);
  }
}

describe('unexpected failures: the 500 says what the client may assume', () => {
  const readFailure = (body: any, response: Response) => {
    expectErrorShape(500, 'internal_error')(body, response);
    expect(body.error.message).toMatch(/while reading; nothing was changed/);
    expect(body.error.message).not.toMatch(/not saved/);
  };
  runScenarios([
    {
      name: 'a list read: nothing was changed',
      url: '/cms/news',
      before: async (server) => failEverything(server),
      expectedStatus: 500,
      expect: readFailure,
    },
    {
      name: 'a content type with its rows, read through Express: nothing was changed',
      url: '/cms-content/news',
      expectedStatus: 500,
      expect: readFailure,
    },
    {
      name: 'a single row: nothing was changed',
      url: '/cms/news/some-id',
      expectedStatus: 500,
      expect: readFailure,
    },
    {
      name: 'a write: the change was not saved',
      method: 'POST',
      url: '/cms/news',
      body: valid,
      expectedStatus: 500,
      expect(body, response) {
        expectErrorShape(500, 'internal_error')(body, response);
        expect(body.error.message).toMatch(/the change was not saved/);
      },
    },
  ]);
});
