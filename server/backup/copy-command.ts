import { parseArgs } from 'node:util';
import { type ProgressStream, progressLine } from '../cli/progress-line.js';
import { defaultSearchIndexDir } from '../config/app-paths.js';
import { ContentTypeRegistry } from '../content/content-type-registry.js';
import {
  type DatabaseLocation,
  databaseLocationOf,
  databaseSite,
  openDatabaseAt,
  type QuireDb,
  redactDatabaseUrls,
} from '../db/database.js';
import { DatabaseUnavailableError } from '../db/database-errors.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { notSaved, type SearchIndexSaving, saveSearchIndexForNextStart } from '../search/search-index-saving.js';
import { copySite, SiteCopyError } from './site-copy-service.js';

/** How to call `quire copy`. */
export const COPY_USAGE = 'quire copy --from FILE|postgres://... --to FILE|postgres://... [--force]';

/** Where the command writes: the summary to `out`, progress and problems to `err`. */
export interface CopyStreams {
  out: NodeJS.WritableStream;
  err: ProgressStream;
  /** The variables the command reads its defaults from (QUIRE_DB...; `main` passes the process's); none when left out. */
  env?: NodeJS.ProcessEnv;
}

/** The options `quire copy` takes. */
export const COPY_OPTIONS = { from: { type: 'string' }, to: { type: 'string' }, force: { type: 'boolean' } } as const;

/**
 * `quire copy`: moves a whole site between a SQLite file and a PostgreSQL database (either way, or
 * between two of a kind). Prints progress on a terminal and one summary line; returns the exit
 * code (0 copied, 1 refused or failed, 2 usage). Messages never hold a URL's credentials. Then
 * saves the search indexes of the target's large types for its first server (`searchIndexes`:
 * where PostgreSQL's go, default the user-data folder's, and from what size).
 */
export async function copyCommand(
  args: string[],
  streams: CopyStreams = { out: process.stdout, err: process.stderr },
  options: { searchIndexes?: Partial<SearchIndexSaving> } = {},
): Promise<number> {
  const say = (stream: NodeJS.WritableStream, line: string) => stream.write(`${line}\n`);
  let from: DatabaseLocation;
  let to: DatabaseLocation;
  let force: boolean;
  try {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: COPY_OPTIONS,
    });
    if (positionals.length > 0) throw new Error('copy takes no positional arguments');
    if (!values.from || !values.to) throw new Error('give both --from and --to');
    from = databaseLocationOf(values.from);
    to = databaseLocationOf(values.to);
    force = values.force ?? false;
  } catch (error) {
    say(streams.err, `quire copy: ${redactDatabaseUrls((error as Error).message)}. Usage: ${COPY_USAGE}`);
    return 2;
  }
  const sourceSite = await databaseSite(from);
  if (!sourceSite.exists()) {
    // The source is never written, not even made.
    say(streams.err, `quire copy: the source ${sourceSite.description} does not exist`);
    return 1;
  }
  const opened: QuireDb[] = [];
  const progress = progressLine(streams.err);
  try {
    const source = await sourceSite.open();
    opened.push(source);
    const target = await openDatabaseAt(to);
    opened.push(target);
    if (source.description === target.description)
      throw new SiteCopyError('the source and the target are the same database');
    // A line on an SVG the copy cleaned goes between progress lines.
    const log = (line: string) => {
      progress.done();
      say(streams.err, line);
    };
    const copied = await copySite(source, target, { force, progress: progress.update, log }).finally(() =>
      progress.done(),
    );
    let summary = `Copied ${copied.types} content types, ${copied.rows} rows and ${copied.media} uploads from ${source.description} to ${target.description}; counts checked`;
    // Built here, where the user waits anyway, rather than at a server's first search.
    const indexStarted = performance.now();
    const registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(target.db) });
    await registry.reload();
    const saving = { folder: defaultSearchIndexDir(process.platform, streams.env ?? {}), ...options.searchIndexes };
    let saved = 0;
    try {
      for (const type of registry.list()) {
        progress.update(`Saving search indexes for the next start: ${type.table}`);
        if (await saveSearchIndexForNextStart(target, type.table, saving)) saved++;
      }
    } catch (error) {
      // The site is copied: a server builds the indexes at its first searches instead.
      progress.done();
      say(streams.err, `quire copy: ${notSaved(error)}`);
    }
    progress.done();
    if (saved > 0) {
      const seconds = ((performance.now() - indexStarted) / 1000).toFixed(1);
      summary += `, search indexes of ${saved} content types saved for the next start in ${seconds} s`;
    }
    // One line, last: a script reads it as the command's result.
    say(streams.out, summary);
    return 0;
  } catch (error) {
    const known = error instanceof SiteCopyError || error instanceof DatabaseUnavailableError;
    const message = known ? (error as Error).message : `copy failed: ${(error as Error).message}`;
    say(streams.err, `quire copy: ${redactDatabaseUrls(message).split('\n')[0]}`);
    return 1;
  } finally {
    for (const database of opened) await database.close();
  }
}
