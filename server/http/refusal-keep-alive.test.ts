import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { newsBody } from '../test-support/seed.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A write refused before its body is read (a viewer's PATCH) leaves the connection clean: the
 * next request on the same kept-alive socket is answered as itself.
 */

let server: TestServer;
let team: Credentials;
let rowId: string;

beforeAll(async () => {
  server = await startTestServer();
  team = await makeTeam(server);
  const made = await request(server, 'POST', '/cms/news', { json: newsBody({ title: 'Kept' }), headers: team.admin });
  expect(made.response.status, made.text).toBe(201);
  rowId = made.body.id;
});
afterAll(async () => server?.dispose());

/** Sends raw requests on one socket and collects everything the server answers. */
function exchange(raw: string, answers: number): Promise<string> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if ((text.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= answers)
        setTimeout(() => {
          socket.destroy();
          resolve(text);
        }, 100);
    });
    socket.on('error', reject);
    socket.write(raw);
  });
}

describe('a refused write on a kept-alive connection', () => {
  for (const who of ['viewer', 'author'] as const)
    it(`answers the next request on the socket as itself (${who})`, async () => {
      const host = new URL(server.origin).host;
      const headers = Object.entries(team[who])
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n');
      const body = JSON.stringify({ title: 'x'.repeat(5000) });
      const raw =
        `PATCH /api/cms/news/${rowId} HTTP/1.1\r\nHost: ${host}\r\n${headers}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
        `GET /api/cms/news/${rowId} HTTP/1.1\r\nHost: ${host}\r\n${headers}\r\n\r\n`;
      const text = await exchange(raw, 2);
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
      expect(statuses, text.slice(0, 2000)).toEqual(['403', '200']);
    });
  for (const who of ['viewer', 'author'] as const)
    it(`answers the next request when the body comes after the refusal (${who})`, async () => {
      const host = new URL(server.origin).host;
      const headers = Object.entries(team[who])
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n');
      const body = JSON.stringify({ title: 'x'.repeat(5000) });
      const { hostname, port } = new URL(server.origin);
      const socket = connect(Number(port), hostname);
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.write(
        `PATCH /api/cms/news/${rowId} HTTP/1.1\r\nHost: ${host}\r\n${headers}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      await new Promise((r) => setTimeout(r, 500));
      socket.write(`${body}GET /api/cms/news/${rowId} HTTP/1.1\r\nHost: ${host}\r\n${headers}\r\n\r\n`);
      await new Promise((r) => setTimeout(r, 1000));
      socket.destroy();
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
      expect(statuses, text.slice(0, 3000)).toEqual(['403', '200']);
    });
});
