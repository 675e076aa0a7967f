import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { type ProgressStream, progressBar, progressLine } from '../cli/progress-line.js';
import { defaultSearchIndexDir } from '../config/app-paths.js';
import { chooseDatabase, type DatabaseChoice } from '../config/database-choice.js';
import { ContentTypeRegistry } from '../content/content-type-registry.js';
import { ContentWrites } from '../content/content-writes.js';
import { openDatabaseAt, type QuireDb, redactDatabaseUrls } from '../db/database.js';
import { DatabaseUnavailableError } from '../db/database-errors.js';
import { ContentRepository } from '../db/repositories/content-repository.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { LocaleService } from '../locales/locale-service.js';
import { notSaved, saveSearchIndexForNextStart } from '../search/search-index-saving.js';
import { formatOf, type ImportFormat, ImportFormatError, readRecords } from './import-formats.js';
import { csvHeaderProblem, importLocale } from './localized-import.js';
import { importRows } from './row-import.js';

/** How to call `quire import`. */
export const IMPORT_USAGE =
  'quire import --type TYPE [--db FILE | --database postgres://...] [--editor NAME] FILE.json|FILE.ndjson|FILE.csv';

/** Where the command writes: a summary to `out`, the progress bar and problems to `err`. */
export interface ImportStreams {
  out: NodeJS.WritableStream;
  err: ProgressStream;
  /** The variables the command reads its defaults from (QUIRE_DB...; `main` passes the process's); none when left out. */
  env?: NodeJS.ProcessEnv;
}

/**
 * `quire import`: loads a JSON array, NDJSON or CSV file into a content type in one transaction.
 * Prints a progress bar on a terminal and a one-line summary; returns the exit code (0 imported,
 * 1 refused or failed, 2 usage). On PostgreSQL the search index is saved in `searchIndexDir`
 * (default `defaultSearchIndexDir()`, where servers on this machine look), for tables of
 * `searchIndexMinRows` rows up (default SNAPSHOT_MIN_ROWS).
 */
export async function importCommand(
  args: string[],
  streams: ImportStreams = { out: process.stdout, err: process.stderr },
  options: { searchIndexDir?: string; searchIndexMinRows?: number } = {},
): Promise<number> {
  const say = (stream: NodeJS.WritableStream, line: string) => stream.write(`${line}\n`);
  let parsed: ReturnType<typeof parse>;
  let choice: DatabaseChoice;
  try {
    parsed = parse(args);
    if (parsed.positionals.length !== 1) throw new Error('give exactly one FILE to import');
    if (!parsed.values.type) throw new Error('--type names the content type to import into');
    choice = chooseDatabase(parsed.values, streams.env ?? {});
  } catch (error) {
    say(streams.err, `quire import: ${redactDatabaseUrls((error as Error).message)}. Usage: ${IMPORT_USAGE}`);
    return 2;
  }
  const file = resolve(parsed.positionals[0]);
  const format: ImportFormat | null = formatOf(file);
  if (!format) {
    say(streams.err, `quire import: ${basename(file)} must end in .json, .ndjson, .jsonl or .csv`);
    return 2;
  }
  const started = performance.now();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    say(streams.err, `quire import: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return 1;
  }
  let records: ReturnType<typeof readRecords>;
  try {
    records = readRecords(text, format);
  } catch (error) {
    if (!(error instanceof ImportFormatError)) throw error;
    say(streams.err, `quire import: ${basename(file)} line ${error.line}: ${error.message}; nothing was imported`);
    return 1;
  }

  let database: QuireDb;
  try {
    database = await openDatabaseAt(choice);
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError)) throw error;
    say(streams.err, `quire import: ${error.message}`);
    return 1;
  }
  try {
    const registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(database.db) });
    await registry.reload();
    const type = registry.list().find((candidate) => candidate.table === parsed.values.type);
    if (!type) {
      const known = registry
        .list()
        .map((candidate) => candidate.table)
        .join(', ');
      say(streams.err, `quire import: there is no content type ${parsed.values.type} (types: ${known})`);
      return 2;
    }
    if (type.kind === 'single') {
      // A single type holds one row: an import may only give it its first.
      const held = await new ContentRepository({ db: database.db, engine: database.engine }).count(type.table, {
        equals: [],
      });
      if (held + records.length > 1) {
        say(
          streams.err,
          `quire import: ${type.table} is a single type and holds one row (it has ${held}, the file ${records.length}); nothing was imported`,
        );
        return 2;
      }
    }
    const locales = await siteLocales(database);
    const header = format === 'csv' && records.length > 0 ? Object.keys(records[0].fields) : [];
    const headerProblem = importLocale(type, locales) ? csvHeaderProblem(type, locales, header) : null;
    if (headerProblem) {
      say(streams.err, `quire import: ${basename(file)}, the header row: ${headerProblem}; nothing was imported`);
      return 1;
    }
    const progress = progressLine(streams.err);
    const result = await importRows(database, registry, type, records, {
      locales,
      format,
      editorName: parsed.values.editor ?? 'import',
      onProgress: (done, total) =>
        progress.update(
          `${progressBar(`Importing ${type.table}`, done, total, 'rows')}${done === total ? ', indexing and saving' : ''}`,
        ),
    }).finally(() => progress.done());
    const seconds = (performance.now() - started) / 1000;
    if (result.refused > 0) {
      for (const problem of result.problems)
        say(streams.err, `${basename(file)} line ${problem.line}: ${problem.message}`);
      const more = result.refused - result.problems.length;
      if (more > 0) say(streams.err, `... and ${count(more)} more`);
      say(
        streams.err,
        `quire import: ${count(result.refused)} of ${count(records.length)} rows refused; nothing was imported`,
      );
      return 1;
    }
    const rate = Math.round(result.imported / Math.max(seconds, 0.001));
    const summary = [
      `Imported ${count(result.imported)} ${type.table} rows from ${basename(file)} in ${seconds.toFixed(1)} s (${count(rate)} rows/s)`,
    ];
    // Part of that time: the table's indexes, built once from the rows (into an empty table); said
    // where it shows in tenths of a second.
    if (result.indexSeconds >= 0.05) {
      summary.push(`indexes built after the rows in ${result.indexSeconds.toFixed(1)} s of that`);
    }
    // Built here, where the import's user waits anyway, rather than at the server's first search.
    const indexStarted = performance.now();
    const folder = options.searchIndexDir ?? defaultSearchIndexDir(process.platform, streams.env ?? {});
    try {
      progress.update(`Saving the search index of ${type.table} for the next start`);
      const saved = await saveSearchIndexForNextStart(database, type.table, {
        folder,
        minRows: options.searchIndexMinRows,
      }).finally(() => progress.done());
      if (saved) {
        const indexSeconds = (performance.now() - indexStarted) / 1000;
        summary.push(`search index saved for the next start in ${indexSeconds.toFixed(1)} s`);
      }
    } catch (error) {
      // The rows are in: a server builds the index at its first search instead.
      say(streams.err, `quire import: ${notSaved(error)}`);
    }
    // One line, last, whatever was done besides the rows: a script reads it as the command's result.
    say(streams.out, summary.join(', '));
    return 0;
  } finally {
    await database.close();
  }
}

/** The site's locales as stored, which localized columns are imported in. */
async function siteLocales(database: QuireDb): Promise<LocalesDocument> {
  // Read once: the import never changes them, and a change meanwhile waits for its table lock.
  const locales = new LocaleService({
    db: database.db,
    writes: new ContentWrites({ db: database.db, committed: null }),
  });
  await locales.load();
  return locales.document;
}

/** The options `quire import` takes. */
export const IMPORT_OPTIONS = {
  db: { type: 'string' },
  database: { type: 'string' },
  type: { type: 'string' },
  editor: { type: 'string' },
} as const;

function parse(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: true, options: IMPORT_OPTIONS });
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
