import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Migrations are frozen: each carries the SQL and steps it needs, so a later change to today's
 * code cannot change what an old migration does to a database it upgrades. So they import nothing
 * but Kysely, Node's built-ins and one another (the engines' steps included), and never ask which
 * engine they run on: what differs is the engine's step of the same name.
 */

const folder = new URL('./', import.meta.url);

/** The migrations and the files they share (not their tests or fixtures). */
const MIGRATION_FILES = readdirSync(folder)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .map((name) => new URL(name, folder));

/** Each engine's steps of the migrations, frozen as the migrations are. */
const ENGINE_STEP_FILES = [
  new URL('../sqlite/sqlite-migrations.ts', import.meta.url),
  new URL('../postgres/postgres-migrations.ts', import.meta.url),
];

/** The module specifiers a file imports or re-exports. */
function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map(
    (match) => match[1] ?? match[2],
  );
}

/** Whether a file may import `specifier`: Kysely, Node's built-ins, and the migrations' own files. */
function allowed(specifier: string, ownFolder: string): boolean {
  return specifier === 'kysely' || specifier.startsWith('node:') || specifier.startsWith(ownFolder);
}

describe('migrations are frozen', () => {
  it('finds the files it checks', () => {
    expect(MIGRATION_FILES.length).toBeGreaterThan(25);
    for (const file of ENGINE_STEP_FILES) expect(readFileSync(file, 'utf8')).toContain('EngineMigrations');
  });

  it('import nothing from outside the migrations (but Kysely and Node)', () => {
    const outside = [
      ...MIGRATION_FILES.flatMap((file) =>
        importsOf(readFileSync(file, 'utf8'))
          .filter((specifier) => !allowed(specifier, './'))
          .map((specifier) => `${file.pathname.split('/').pop()}: ${specifier}`),
      ),
      ...ENGINE_STEP_FILES.flatMap((file) =>
        importsOf(readFileSync(file, 'utf8'))
          .filter((specifier) => !allowed(specifier, '../migrations/'))
          .map((specifier) => `${file.pathname.split('/').pop()}: ${specifier}`),
      ),
    ];
    expect(outside).toEqual([]);
  });

  it('never ask which engine they run on', () => {
    const asking = MIGRATION_FILES.filter((file) => /\bkind\b\s*[!=]==|\.kind\b/.test(readFileSync(file, 'utf8')));
    expect(asking.map((file) => file.pathname.split('/').pop())).toEqual([]);
  });

  it('has every engine give steps for the same migrations', async () => {
    const { sqliteMigrations } = await import('../sqlite/sqlite-migrations.js');
    const { postgresMigrations } = await import('../postgres/postgres-migrations.js');
    const { MIGRATION_NAMES } = await import('./index.js');
    const names = Object.keys(sqliteMigrations).sort();
    expect(Object.keys(postgresMigrations).sort()).toEqual(names);
    for (const name of names) expect(MIGRATION_NAMES).toContain(name);
  });
});
