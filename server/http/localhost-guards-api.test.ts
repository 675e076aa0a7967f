import { describe, expect } from 'vitest';
import { runScenarios } from '../test-support/api-scenario.js';
import { refusedUnchanged, runRawScenarios } from '../test-support/hostile-http.js';
import type { TestServer } from '../test-support/test-server.js';

/**
 * The localhost guards over real HTTP: every refusal has its exact status and code, comes in the
 * JSON error shape with the security headers and no CORS grant, and changes nothing.
 */

const newsForm = 'title=Hello&status=draft&published_at=2025-01-01%2010:00:00';
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const port = (server: TestServer) => new URL(server.origin).port;

describe('Host guard (DNS rebinding)', () => {
  runRawScenarios([
    {
      name: 'a foreign Host is refused with 421 before any work',
      request: { path: '/api/cms/news', headers: { host: 'evil.example' } },
      expectedStatus: 421,
      expectedCode: 'misdirected_request',
    },
    {
      name: 'a foreign Host with the right port is refused too (the rebinding case)',
      request: (server) => ({ path: '/api/cms/news', headers: { host: `evil.example:${port(server)}` } }),
      expectedStatus: 421,
      expectedCode: 'misdirected_request',
    },
    {
      name: 'a write under a foreign Host is refused and writes nothing',
      request: {
        method: 'POST',
        path: '/api/cms/news',
        headers: { host: 'evil.example', ...form },
        body: newsForm,
      },
      expectedStatus: 421,
      expectedCode: 'misdirected_request',
    },
    {
      name: 'a name that merely starts like loopback is foreign',
      request: { path: '/api/cms/news', headers: { host: '127.0.0.1.evil.example' } },
      expectedStatus: 421,
      expectedCode: 'misdirected_request',
    },
    {
      name: 'the editor routes are guarded too',
      request: { path: '/', headers: { host: 'evil.example' } },
      expectedStatus: 421,
      expectedCode: 'misdirected_request',
    },
    {
      name: 'a request without Host is refused with 400',
      request: { path: '/api/cms/news', headers: { host: null } },
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'a malformed Host is refused with 400',
      request: { path: '/api/cms/news', headers: { host: 'a b' } },
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'two Host headers are refused with 400',
      bytes: (server) =>
        `GET /api/cms/news HTTP/1.1\r\nHost: 127.0.0.1:${port(server)}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'an absolute-form request target is refused with 400',
      bytes: (server) =>
        `GET http://evil.example/api/cms/news HTTP/1.1\r\nHost: 127.0.0.1:${port(server)}\r\nConnection: close\r\n\r\n`,
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'localhost with a port is served',
      request: (server) => ({ path: '/api/cms/news', headers: { host: `localhost:${port(server)}` } }),
      expectedStatus: 200,
    },
    {
      name: '[::1] is served',
      request: (server) => ({ path: '/api/cms/news', headers: { host: `[::1]:${port(server)}` } }),
      expectedStatus: 200,
    },
    {
      name: 'another 127/8 address without a port is served',
      request: { path: '/api/cms/news', headers: { host: '127.0.0.2' } },
      expectedStatus: 200,
    },
  ]);
});

describe('Host guard with --allow-host', () => {
  runRawScenarios(
    [
      {
        name: 'a configured name is served, whatever its case',
        request: { path: '/api/cms/news', headers: { host: 'Quire.Example:8080' } },
        expectedStatus: 200,
      },
      {
        name: 'other names are still refused',
        request: { path: '/api/cms/news', headers: { host: 'evil.example' } },
        expectedStatus: 421,
        expectedCode: 'misdirected_request',
      },
    ],
    { server: { allowedHosts: ['quire.example'] } },
  );
});

describe("Node's own parser errors answer in the JSON error shape", () => {
  runRawScenarios([
    {
      name: 'a malformed request line',
      bytes: 'GARBAGE\r\n\r\n',
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'raw non-ASCII bytes in the URL',
      bytes: Buffer.concat([
        Buffer.from('GET /api/cms/n'),
        Buffer.from([0xc3, 0xbc]),
        Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      ]),
      expectedStatus: 400,
      expectedCode: 'bad_request',
      expect: (answer) => expect(answer.body.error.message).toMatch(/percent-encoded/),
    },
    {
      name: 'a space in the URL',
      bytes: 'GET /api/cms/a b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'a malformed header name',
      bytes: 'GET /api/cms/news HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n',
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'Content-Length together with Transfer-Encoding (request smuggling)',
      bytes:
        'POST /api/cms/news HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        `Content-Length: ${newsForm.length}\r\nTransfer-Encoding: chunked\r\n\r\n${newsForm}`,
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
    {
      name: 'headers larger than Node accepts',
      bytes: `GET /api/cms/news HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      expectedStatus: 400,
      expectedCode: 'bad_request',
    },
  ]);
});

/** The PUT scenario seeds its row first, then snapshots. */
const guard = refusedUnchanged(403, 'forbidden');

async function seedKeptRow(server: TestServer): Promise<void> {
  const news = server.services.registry.requireByTable('news');
  await server.services.rows.create(
    news,
    { title: 'Kept', status: 'draft', published_at: '2025-01-01 10:00:00' },
    'kept',
  );
}

describe('Origin guard (cross-site writes and reads)', () => {
  runScenarios([
    {
      name: 'a form POST from a foreign page is refused with 403',
      method: 'POST',
      url: '/cms/news',
      body: newsForm,
      headers: { origin: 'http://evil.example' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'a text/plain "simple request" from a foreign page is refused with 403, not parsed',
      method: 'POST',
      url: '/cms/news',
      body: newsForm,
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'a write from a null origin (sandboxed frame, file page) is refused with 403',
      method: 'POST',
      url: '/cms/news',
      body: newsForm,
      headers: { origin: 'null' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'a write from another local port (same site, other origin) is refused with 403',
      method: 'POST',
      url: '/cms/news',
      body: newsForm,
      headers: { origin: 'http://127.0.0.1:1' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'Sec-Fetch-Site: cross-site on a write is refused with 403, even without Origin',
      method: 'POST',
      url: '/cms/news',
      body: newsForm,
      headers: { 'sec-fetch-site': 'cross-site' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'a foreign PUT on an existing row is refused and the row keeps its values',
      method: 'PUT',
      url: '/cms/news/kept',
      body: 'title=Defaced',
      headers: { origin: 'http://evil.example' },
      async before(server) {
        await seedKeptRow(server);
        await guard.before?.(server);
      },
      expectedStatus: 403,
      expect: (...args) => guard.expect?.(...args),
    },
    {
      name: 'a foreign DELETE is refused and the row stays',
      method: 'DELETE',
      url: '/cms/news/kept',
      headers: { origin: 'http://evil.example' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'a foreign PATCH is refused',
      method: 'PATCH',
      url: '/cms/news/kept',
      body: 'title=Defaced',
      headers: { origin: 'https://evil.example' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'a cross-origin read from a foreign page is refused and gets no CORS grant',
      url: '/cms/news',
      headers: { origin: 'http://evil.example' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'a preflight from a foreign page is refused without CORS headers',
      method: 'OPTIONS',
      url: '/cms/news',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'PUT' },
      expectedStatus: 403,
      ...refusedUnchanged(403, 'forbidden'),
    },
    {
      name: 'a write without Origin (curl, scripts) is allowed on loopback',
      method: 'POST',
      url: '/cms/news',
      body: newsForm,
      expectedStatus: 201,
      expect(_body, response) {
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      },
    },
  ]);
});

describe('Origin guard: the editor itself', () => {
  runRawScenarios([
    {
      name: "a write from the server's own origin (the editor) is allowed",
      request: (server) => ({
        method: 'POST',
        path: '/api/cms/news',
        headers: { origin: server.origin, 'sec-fetch-site': 'same-origin', ...form },
        body: newsForm,
      }),
      expectedStatus: 201,
    },
    {
      name: 'the own origin is matched under the name the page used (localhost)',
      request: (server) => ({
        method: 'POST',
        path: '/api/cms/news',
        headers: { host: `localhost:${port(server)}`, origin: `http://localhost:${port(server)}`, ...form },
        body: newsForm,
      }),
      expectedStatus: 201,
    },
    {
      name: 'a page on localhost cannot write to the server addressed as 127.0.0.1',
      request: (server) => ({
        method: 'POST',
        path: '/api/cms/news',
        headers: { origin: `http://localhost:${port(server)}`, ...form },
        body: newsForm,
      }),
      expectedStatus: 403,
      expectedCode: 'forbidden',
    },
  ]);
});

describe('CORS with --cors-origin (read-only)', () => {
  const reader = 'http://localhost:3000';
  runScenarios(
    [
      {
        name: 'a named origin may read and gets its exact origin back',
        url: '/cms/news',
        headers: { origin: reader },
        expectedStatus: 200,
        expect(_body, response) {
          expect(response.headers.get('access-control-allow-origin')).toBe(reader);
          expect(response.headers.get('vary')).toMatch(/Origin/);
          expect(response.headers.get('access-control-allow-credentials')).toBeNull();
        },
      },
      {
        name: "a named origin's preflight for GET with the token header is answered",
        method: 'OPTIONS',
        url: '/cms/news',
        headers: {
          origin: reader,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
        expectedStatus: 204,
        expect(_body, response) {
          expect(response.headers.get('access-control-allow-origin')).toBe(reader);
          expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
          expect(response.headers.get('access-control-allow-headers')).toBe('authorization');
        },
      },
      {
        name: "a named origin's preflight for a write is refused",
        method: 'OPTIONS',
        url: '/cms/news',
        headers: { origin: reader, 'access-control-request-method': 'POST' },
        expectedStatus: 403,
        ...refusedUnchanged(403, 'forbidden'),
      },
      {
        name: "a named origin's preflight for another header is refused",
        method: 'OPTIONS',
        url: '/cms/news',
        headers: { origin: reader, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-evil' },
        expectedStatus: 403,
        ...refusedUnchanged(403, 'forbidden'),
      },
      {
        name: 'a named origin may not write',
        method: 'POST',
        url: '/cms/news',
        body: newsForm,
        headers: { origin: reader },
        expectedStatus: 403,
        ...refusedUnchanged(403, 'forbidden'),
      },
      {
        name: 'other origins still get nothing',
        url: '/cms/news',
        headers: { origin: 'http://localhost:3001' },
        expectedStatus: 403,
        ...refusedUnchanged(403, 'forbidden'),
      },
    ],
    { server: { corsOrigins: [reader] } },
  );
});

describe('API token (required beyond loopback, or with --token)', () => {
  const token = 'test-token-0123456789abcdef';
  const auth = { authorization: `Bearer ${token}` };
  runScenarios(
    [
      {
        name: 'a read without the token is refused with 401 and a Bearer challenge',
        url: '/cms/news',
        expectedStatus: 401,
        ...refusedUnchanged(401, 'unauthorized', {
          apiHeaders: auth,
          also: (_body, response) => expect(response.headers.get('www-authenticate')).toBe('Bearer realm="Quire"'),
        }),
      },
      {
        name: 'a write without the token is refused with 401',
        method: 'POST',
        url: '/cms/news',
        body: newsForm,
        expectedStatus: 401,
        ...refusedUnchanged(401, 'unauthorized', { apiHeaders: auth }),
      },
      {
        name: 'a wrong token is refused with 401',
        method: 'POST',
        url: '/cms/news',
        body: newsForm,
        headers: { authorization: `Bearer ${token.slice(0, -1)}x` },
        expectedStatus: 401,
        ...refusedUnchanged(401, 'unauthorized', { apiHeaders: auth }),
      },
      {
        name: 'the token in another scheme is refused with 401',
        url: '/cms/news',
        headers: { authorization: `Basic ${token}` },
        expectedStatus: 401,
        ...refusedUnchanged(401, 'unauthorized', { apiHeaders: auth }),
      },
      {
        name: 'the token does not excuse a foreign origin',
        method: 'POST',
        url: '/cms/news',
        body: newsForm,
        headers: { ...auth, origin: 'http://evil.example' },
        expectedStatus: 403,
        ...refusedUnchanged(403, 'forbidden', { apiHeaders: auth }),
      },
      {
        name: 'with the token a read is served',
        url: '/cms/news',
        headers: auth,
        expectedStatus: 200,
      },
      {
        name: 'with the token a write is served',
        method: 'POST',
        url: '/cms/news',
        body: newsForm,
        headers: { authorization: `bearer ${token}` },
        expectedStatus: 201,
      },
    ],
    { server: { token } },
  );
});
