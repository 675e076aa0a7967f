import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../config/package-root.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { typesCommand } from './types-command.js';

/** The flags naming the test server's database: `--db FILE`, or `--database URL` on PostgreSQL. */
const databaseArgs = (): string[] =>
  server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'quire-types-'));
  const columns = [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
    {
      name: 'stage',
      label: 'Stage',
      type: 'select',
      required: true,
      options: [
        { id: 'planned', text: 'Planned' },
        { id: 'held', text: 'Held' },
      ],
    },
    { name: 'starts_at', label: 'Starts', type: 'datetime', required: true },
    { name: 'seats', label: 'Seats', type: 'number', required: false },
    { name: 'tags', label: 'Tags', type: 'tags', required: false },
    { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
    { name: 'story', label: 'Story', type: 'richtext', required: false },
  ];
  const created = await request(server, 'POST', '/cms-content', { json: { title: 'Events', columns } });
  expect(created.response.status, created.text).toBe(201);
});
afterAll(async () => {
  await server.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the project's tsc once on consumer files, each path (under the temporary folder) beside the
 * generated declarations it imports: its exit status and messages, one line per error, each
 * starting with its file's path. One run for every file: each tsc start loads the compiler and
 * parses TypeScript's lib files again.
 */
function compile(files: Record<string, string>): { status: number | null; output: string } {
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
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
      ...Object.keys(files),
    ],
    { encoding: 'utf8', cwd: dir },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A consumer as a site's build would write it; each @ts-expect-error line must be an error. */
const CONSUMER = `import type { Category, Collections, Event, EventInput, EventList, ImageLayout, News } from './quire-types.js';

export function titles(list: EventList): string[] {
  return list.rows.map((row: Event) => row.name);
}
export function describe(row: Event): string {
  const stage: 'planned' | 'held' = row.stage;
  const tags: string[] = row.tags;
  const seats: number | null = row.seats;
  const category: string | null = row.category === null ? null : row.category.title;
  return [stage, row.starts_at, tags.join(','), seats, category, row.meta?.title, row.created_at].join(' ');
}
export const draft: EventInput = { name: 'Concert', stage: 'planned', starts_at: '2026-07-01 19:30' };
export const byTable: Collections['news']['row'][] = [] as News[];
// Rich text may show images: reads carry their layout by path.
export function layoutOf(row: Event, path: string): ImageLayout | undefined {
  const layout = row.media?.[path];
  return layout && { alt: layout.alt, width: layout.width, height: layout.height, focal: layout.focal, hash: layout.hash };
}

// @ts-expect-error: a category shows no images, so its reads carry no media
export const noMedia = (row: Category) => row.media;

// @ts-expect-error: an Event has no field "venue"
export const venue = (row: Event) => row.venue;
// @ts-expect-error: "lost" is not one of the stage's options
export const wrongStage: Event['stage'] = 'lost';
// @ts-expect-error: a name is a string, not a number
export const wrongName = (row: Event): number => row.name;
// @ts-expect-error: a new event needs its stage and start
export const incomplete: EventInput = { name: 'No stage' };
`;

describe('TypeScript declarations', () => {
  it('GET /api/types.d.ts and quire types --out give the same declarations, named from the types', async () => {
    const { response, text } = await request(server, 'GET', '/types.d.ts');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/typescript/);
    expect(text).toContain('export interface Event {');
    expect(text).toContain('export interface EventList {');
    expect(text).toContain('export interface News {');
    expect(text).toContain('export interface Category {');
    expect(text).toMatch(/ {2}stage: "planned" \| "held";/);

    const out = new PassThrough();
    let said = '';
    out.on('data', (chunk) => {
      said += chunk;
    });
    const file = join(dir, 'quire-types.d.ts');
    const code = await typesCommand([...databaseArgs(), '--out', file], { out, err: new PassThrough() });
    expect(code).toBe(0);
    expect(said).toMatch(/^Wrote .*quire-types\.d\.ts: types of 5 content types\n$/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('compile a consumer with tsc, a wrong field fails to compile, and they follow a change of a content type', async () => {
    const before = (await request(server, 'GET', '/types.d.ts')).text;
    const current = (await request(server, 'GET', '/cms-content/events')).body;
    const columns = current.columns.map(
      ({ filterable: _f, orderable: _o, ...column }: Record<string, unknown>) => column,
    );
    columns.push({ name: 'venue', label: 'Venue', type: 'text', required: false });
    expect((await request(server, 'PUT', '/cms-content/events', { json: { columns } })).response.status).toBe(200);
    const after = (await request(server, 'GET', '/types.d.ts')).text;
    writeFileSync(join(dir, 'quire-types.d.ts'), before);
    mkdirSync(join(dir, 'after'));
    writeFileSync(join(dir, 'after', 'quire-types.d.ts'), after);

    const result = compile({
      'consumer.ts': CONSUMER,
      'wrong.ts': `${CONSUMER}\nexport const typo = (row: Event) => row.nmae;\n`,
      // Now that events have a venue, the first @ts-expect-error is unused, which tsc reports.
      'after/consumer.ts': CONSUMER,
    });
    expect(result.status).not.toBe(0);
    const errors = result.output.trim().split('\n');
    expect(errors.filter((line) => line.startsWith('consumer.ts'))).toEqual([]);
    expect(errors.filter((line) => line.startsWith('wrong.ts'))).toEqual([
      expect.stringContaining("Property 'nmae' does not exist on type 'Event'"),
    ]);
    expect(errors.filter((line) => line.startsWith('after/consumer.ts'))).toEqual([
      expect.stringContaining("Unused '@ts-expect-error' directive"),
    ]);
    expect(errors).toHaveLength(2);
  }, 60_000);
});
