import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerOptions } from '../server.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A request body: sent form-encoded (the spec's format) unless `json` is set. */
export type ScenarioBody = Record<string, string | string[]> | string;

/**
 * One API scenario, in the spirit of PocketBase's `ApiScenario`: a request and what the answer
 * must contain. `expect` receives the parsed JSON for deeper checks.
 */
export interface ApiScenario {
  name: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  url: string;
  body?: ScenarioBody;
  /** Send `body` as JSON instead of a form. */
  json?: unknown;
  headers?: Record<string, string>;
  /** Runs before the request (seed rows...). */
  before?: (server: TestServer) => Promise<void>;
  expectedStatus: number;
  /** Substrings the raw response body must contain. */
  expectedContent?: string[];
  /** Substrings it must not contain. */
  notExpectedContent?: string[];
  expect?: (body: any, response: Response, server: TestServer) => void | Promise<void>;
}

/** Encodes a form body; arrays become repeated keys. */
export function formBody(body: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, one);
  }
  return params.toString();
}

/** Sends one request to a test server and returns the response and its parsed body. */
export async function request(
  server: TestServer,
  method: string,
  url: string,
  options: { body?: ScenarioBody; json?: unknown; headers?: Record<string, string> } = {},
): Promise<{ response: Response; text: string; body: any }> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = JSON.stringify(options.json);
  } else if (options.body !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    payload = typeof options.body === 'string' ? options.body : formBody(options.body);
  }
  const response = await fetch(`${server.api}${url}`, { method, headers, body: payload });
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { response, text, body };
}

/**
 * Sends `json` (when given) with `headers` and answers the status, the ETag and the parsed body: the
 * shape conditional-write tests read (a write's tag, then a write `If-Match` it).
 */
export async function callJson(
  server: TestServer,
  method: string,
  url: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; etag: string | null; body: any }> {
  const { response, body } = await request(server, method, url, { json, headers });
  return { status: response.status, etag: response.headers.get('etag'), body };
}

/**
 * Sends `json` (when given) and answers the parsed body of an answer that must be a success (2xx);
 * the test fails otherwise, naming the request and what it answered.
 */
export async function callOk(server: TestServer, method: string, url: string, json?: unknown): Promise<any> {
  const { status, body } = await callJson(server, method, url, json);
  expect(status, `${method} ${url}: ${JSON.stringify(body)}`).toBeLessThan(300);
  return body;
}

/**
 * Registers one test per scenario against one server on a fresh temporary database (shared by the
 * table, so scenarios may build on earlier ones; `before` seeds what a scenario needs).
 */
export function runScenarios(
  scenarios: ApiScenario[],
  options: { fresh?: boolean; server?: Partial<ServerOptions> } = {},
): void {
  let shared: TestServer | undefined;
  if (!options.fresh) {
    beforeAll(async () => {
      shared = await startTestServer(options.server);
    });
    afterAll(async () => {
      await shared?.dispose();
    });
  }
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const server = shared ?? (await startTestServer(options.server));
      try {
        await scenario.before?.(server);
        const { response, text, body } = await request(server, scenario.method ?? 'GET', scenario.url, scenario);
        expect(response.status, text).toBe(scenario.expectedStatus);
        for (const content of scenario.expectedContent ?? []) expect(text).toContain(content);
        for (const content of scenario.notExpectedContent ?? []) expect(text).not.toContain(content);
        await scenario.expect?.(body, response, server);
      } finally {
        if (!shared) await server.dispose();
      }
    });
  }
}
