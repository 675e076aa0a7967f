import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../config/package-root.js';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { request } from '../test-support/api-scenario.js';
import { openApiProblems } from '../test-support/openapi-responses.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Content types named to break the generated TypeScript and OpenAPI: tables whose type names are
 * TypeScript's own globals (`Record`, `Promise`, `Array`...), names that are reserved words, and
 * titles and labels with quotes, comment ends and emoji. The declarations must still compile
 * (with the project's tsc) and the document must still validate.
 */

let server: TestServer;
let dir: string;

/** Tables whose singular, PascalCased, is a global TypeScript type or a reserved word. */
const HOSTILE_TABLES = [
  'records',
  'promises',
  'arrays',
  'strings',
  'dates',
  'objects',
  'errors',
  'partials',
  'class',
  'function',
  'default',
  'interface',
  'type',
];

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'quire-hostile-types-'));
  for (const table of HOSTILE_TABLES) {
    const columns = [
      { name: 'title', label: 'Title "quoted" */ `tick` $' + '{x} \\ 😀', type: 'text', required: true },
      { name: 'class', label: 'Class', type: 'text', required: false },
      { name: 'default', label: '*/ export const x = 1; /*', type: 'number', required: false },
      {
        name: 'kind',
        label: 'Kind',
        type: 'select',
        required: false,
        options: [
          { id: 'it\'s "quoted"', text: '*/ 😀' },
          { id: 'back\\slash', text: 'Backslash' },
          { id: '$' + '{x}', text: 'Template' },
        ],
      },
      { name: 'related', label: 'Related', type: 'relation', required: false, target: 'categories' },
    ];
    const title = `${table} "quoted" */ 😀 \u2028 line`;
    const created = await request(server, 'POST', '/cms-content', { json: { title, slug: table, columns } });
    expect(created.response.status, created.text).toBe(201);
  }
});
afterAll(async () => {
  await server?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function compile(files: Record<string, string>, main: string): { status: number | null; output: string } {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const tsc = join(packageRoot(), 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(
    process.execPath,
    [
      tsc,
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      join(dir, main),
    ],
    { encoding: 'utf8', cwd: dir },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('hostile content-type names and titles', () => {
  it('give an OpenAPI document that still validates', async () => {
    const { response, body } = await request(server, 'GET', '/openapi.json');
    expect(response.status).toBe(200);
    const document = body as OpenApiDocument;
    expect(await openApiProblems(document)).toEqual([]);
    for (const table of HOSTILE_TABLES) expect(Object.keys(document.paths)).toContain(`/cms/${table}`);
  });

  it('give declarations that compile, with each type reachable through Collections', async () => {
    const { response, text } = await request(server, 'GET', '/types.d.ts');
    expect(response.status).toBe(200);
    const consumer = [
      "import type { Collections } from './quire-types.js';",
      ...HOSTILE_TABLES.map(
        (table, i) =>
          `export const t${i} = (row: Collections[${JSON.stringify(table)}]['row']): string => row.title;\n` +
          `export const k${i} = (row: Collections[${JSON.stringify(table)}]['row']): string | null | undefined => row.kind;`,
      ),
      // The globals the generated names could shadow still mean themselves to a consumer.
      'export const r: Record<string, number> = { a: 1 };',
      'export const p: Promise<number> = Promise.resolve(1);',
      '',
    ].join('\n');
    const result = compile({ 'quire-types.d.ts': text, 'consumer.ts': consumer }, 'consumer.ts');
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  }, 60_000);
});
