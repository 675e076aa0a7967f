import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type ProgressStream, progressLine } from '../cli/progress-line.js';
import { chooseDatabase, type DatabaseChoice } from '../config/database-choice.js';
import { redactDatabaseUrls } from '../db/database.js';
import { DatabaseUnavailableError } from '../db/database-errors.js';
import { type OpenSite, openSite } from './open-site.js';
import { ExportError, exportSite } from './site-export.js';

/** How to call `quire export`. */
export const EXPORT_USAGE =
  'quire export --out DIR [--type TYPE]... [--published-only] [--db FILE | --database postgres://...]';

/** Where a command writes: its result to `out`, progress and problems to `err`. */
export interface CommandStreams {
  out: NodeJS.WritableStream;
  err: ProgressStream;
  /** The variables the command reads its defaults from (QUIRE_DB...; `main` passes the process's); none when left out. */
  env?: NodeJS.ProcessEnv;
}

/** The options `quire export` takes. */
export const EXPORT_OPTIONS = {
  out: { type: 'string' },
  type: { type: 'string', multiple: true },
  'published-only': { type: 'boolean' },
  db: { type: 'string' },
  database: { type: 'string' },
} as const;

const say = (stream: NodeJS.WritableStream, line: string) => stream.write(`${line}\n`);

/**
 * Opens the site a command names, or says in one line why not (returning null). Closes nothing:
 * the caller closes what it got.
 */
export async function openForCommand(
  name: string,
  choice: DatabaseChoice,
  streams: CommandStreams,
): Promise<OpenSite | null> {
  try {
    return await openSite(choice);
  } catch (error) {
    const known = error instanceof DatabaseUnavailableError;
    const message = known ? (error as Error).message : `cannot open the database: ${(error as Error).message}`;
    say(streams.err, `quire ${name}: ${redactDatabaseUrls(message).split('\n')[0]}`);
    return null;
  }
}

/**
 * `quire export`: writes the site's content as JSON files (see `exportSite`) for a build without a
 * server. Progress on a terminal, one summary line; returns the exit code (0 done, 1 failed, 2 usage).
 */
export async function exportCommand(
  args: string[],
  streams: CommandStreams = { out: process.stdout, err: process.stderr },
): Promise<number> {
  let values: { out?: string; type?: string[]; 'published-only'?: boolean; db?: string; database?: string };
  let choice: DatabaseChoice;
  try {
    const parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: EXPORT_OPTIONS,
    });
    values = parsed.values;
    if (!values.out) throw new Error('--out names the folder to write');
    choice = chooseDatabase(values, streams.env ?? {});
  } catch (error) {
    say(streams.err, `quire export: ${redactDatabaseUrls((error as Error).message)}. Usage: ${EXPORT_USAGE}`);
    return 2;
  }
  const dir = resolve(values.out);
  const site = await openForCommand('export', choice, streams);
  if (!site) return 1;
  const progress = progressLine(streams.err);
  try {
    const summary = await exportSite(site.services, site.media, dir, {
      types: values.type ?? [],
      publishedOnly: values['published-only'] ?? false,
      progress: progress.update,
    }).finally(() => progress.done());
    const missing =
      summary.missingMedia.length > 0 ? `; ${summary.missingMedia.length} media files missing from the store` : '';
    say(
      streams.out,
      `Exported ${summary.types} content types, ${summary.rows} rows and ${summary.media} media files to ${dir}: ` +
        `${summary.written} files written, ${summary.unchanged} unchanged, ${summary.removed} removed${missing}`,
    );
    return 0;
  } catch (error) {
    const message = error instanceof ExportError ? error.message : `export failed: ${(error as Error).message}`;
    say(streams.err, `quire export: ${redactDatabaseUrls(message).split('\n')[0]}`);
    return 1;
  } finally {
    await site.close();
  }
}
