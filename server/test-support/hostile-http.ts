import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SESSIONS_TABLE, TOKENS_TABLE } from '../db/repositories/account-repository.js';
import { AUDIT_TABLE } from '../db/repositories/audit-repository.js';
import type { ServerOptions } from '../server.js';
import type { ApiScenario } from './api-scenario.js';
import { countRows } from './seed.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * Requests `fetch` cannot send: any Host (or none), any method, raw body bytes, or bytes straight
 * onto the socket (malformed request lines and headers). For the hostile-request suites.
 */

/** An answer, its body parsed when it is JSON. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

/** What to send with `rawRequest`. */
export interface RawRequest {
  method?: string;
  path: string;
  /** `host: null` sends no Host header at all. */
  headers?: Record<string, string | string[] | null>;
  body?: string | Buffer;
}

/** Sends one request with node:http, which lets the test choose every header, Host included. */
export function rawRequest(origin: string, { method = 'GET', path, headers = {}, body }: RawRequest) {
  const url = new URL(origin);
  const sent: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== null) sent[name] = value;
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: sent, setHost: headers.host !== null, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parseJson(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes bytes straight to the server's socket and reads the answer until the server closes. */
export function sendBytes(origin: string, bytes: string | Buffer): Promise<RawAnswer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = raw.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers: IncomingHttpHeaders = {};
      for (const line of headerLines) {
        const cut = line.indexOf(':');
        headers[line.slice(0, cut).toLowerCase()] = line.slice(cut + 1).trim();
      }
      const text = rest.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, text, body: parseJson(text) });
    });
  });
}

function parseJson(text: string): any {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

/**
 * Every row of every table, as text: equal before and after means a request changed nothing. Read
 * through Kysely and its catalog introspection, so it works on either engine (on SQLite the search
 * index's own tables are among them).
 */
export async function databaseSnapshot(
  server: TestServer,
  options: {
    /** Leave out when tokens and sessions were last used (any signed-in request moves them). */
    withoutUseTimes?: boolean;
    /** Leave out the audit log (a refused sign-in is a security event it records on purpose). */
    withoutAuditLog?: boolean;
  } = {},
): Promise<string> {
  const db = server.database.db;
  const tables = (await db.introspection.getTables({ withInternalKyselyTables: true }))
    .filter((table) => !table.isView && !(options.withoutAuditLog && table.name === AUDIT_TABLE))
    .map((table) => ({ schema: table.schema, name: table.name, key: `${table.schema ?? ''}.${table.name}` }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const snapshot: [string, string[]][] = [];
  for (const table of tables) {
    const name = table.schema ? sql.table(`${table.schema}.${table.name}`) : sql.table(table.name);
    const { rows } = await sql<unknown>`select * from ${name}`.execute(db);
    // Rows sorted as text: some tables (search indexes) have no rowid or key to order by.
    const kept = options.withoutUseTimes ? rows.map((row) => withoutUseTimes(table.name, row)) : rows;
    snapshot.push([table.key, kept.map((row) => JSON.stringify(row)).sort()]);
  }
  return JSON.stringify(snapshot);
}

/** A token's or session's row without the times a use moves (last use; a session's sliding expiry). */
function withoutUseTimes(table: string, row: unknown): unknown {
  if (table !== TOKENS_TABLE && table !== SESSIONS_TABLE) return row;
  const { last_used_at: _used, last_seen_at: _seen, ...rest } = row as Record<string, unknown>;
  if (table === SESSIONS_TABLE) delete rest.expires_at;
  return rest;
}

/** Rows of each content type counted through the API and straight in its table. */
export async function rowCounts(server: TestServer, headers: Record<string, string> = {}) {
  const counts: Record<string, { api: number; table: number }> = {};
  for (const { table } of server.services.registry.list()) {
    const response = await fetch(`${server.api}/cms/${table}?limit=0`, { headers });
    const api = ((await response.json()) as { total: number }).total;
    counts[table] = { api, table: await countRows(server, table) };
  }
  return counts;
}

/** One hostile request and the exact answer it must get. */
export interface RawScenario {
  name: string;
  /** The request, or raw bytes for the socket; either may depend on the server (its port). */
  request?: RawRequest | ((server: TestServer) => RawRequest);
  bytes?: string | Buffer | ((server: TestServer) => string | Buffer);
  expectedStatus: number;
  /** The error code, for refusals (the JSON error shape is checked too). */
  expectedCode?: string;
  expect?: (answer: RawAnswer, server: TestServer) => void | Promise<void>;
}

/**
 * Registers one test per scenario against one server. Every refusal (status >= 400) must come in
 * the JSON error shape, with the security headers, and change nothing: the whole database is
 * compared before and after, and rows counted through the API must match the tables.
 */
export function runRawScenarios(
  scenarios: RawScenario[],
  options: { server?: Partial<ServerOptions>; apiHeaders?: Record<string, string> } = {},
): void {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(options.server);
  });
  afterAll(async () => {
    await server?.dispose();
  });
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const before = await databaseSnapshot(server);
      const answer =
        scenario.bytes !== undefined
          ? await sendBytes(
              server.origin,
              typeof scenario.bytes === 'function' ? scenario.bytes(server) : scenario.bytes,
            )
          : await rawRequest(
              server.origin,
              typeof scenario.request === 'function' ? scenario.request(server) : (scenario.request as RawRequest),
            );
      expect(answer.status, answer.text).toBe(scenario.expectedStatus);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
      if (scenario.expectedStatus >= 400) {
        expect(answer.body?.error?.status).toBe(scenario.expectedStatus);
        if (scenario.expectedCode) expect(answer.body.error.code).toBe(scenario.expectedCode);
        expect(answer.headers['access-control-allow-origin']).toBeUndefined();
        expect(await databaseSnapshot(server)).toBe(before);
      }
      await scenario.expect?.(answer, server);
      for (const { api, table } of Object.values(await rowCounts(server, options.apiHeaders))) expect(api).toBe(table);
    });
  }
}

/**
 * For `runScenarios` tables: a refusal with this status and code, in the JSON error shape with the
 * security headers and no CORS grant, that changed nothing (database compared before and after;
 * rows counted through the API match the tables). Spread into a scenario.
 */
export function refusedUnchanged(
  status: number,
  code: string,
  options: { apiHeaders?: Record<string, string>; also?: ApiScenario['expect'] } = {},
): Pick<ApiScenario, 'before' | 'expect'> {
  let before = '';
  return {
    before: async (server) => {
      before = await databaseSnapshot(server);
    },
    expect: async (body, response, server) => {
      expect(body?.error?.status).toBe(status);
      expect(body.error.code).toBe(code);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await databaseSnapshot(server)).toBe(before);
      for (const { api, table } of Object.values(await rowCounts(server, options.apiHeaders))) {
        expect(api).toBe(table);
      }
      await options.also?.(body, response, server);
    },
  };
}
