import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChangeFeed } from '../changes/change-feed.js';
import { type ProgressStream, progressLine } from '../cli/progress-line.js';
import { chooseDatabase, type DatabaseChoice } from '../config/database-choice.js';
import { redactDatabaseUrls } from '../db/database.js';
import { DatabaseUnavailableError } from '../db/database-errors.js';
import { parseImageFormats, parseImageSizes } from '../media/image-options.js';
import type { ImageVariantSettings } from './export-image-variants.js';
import { type OpenSite, openSite } from './open-site.js';
import { ExportError, type ExportSummary, exportSite } from './site-export.js';

/** How to call `quire export`. */
export const EXPORT_USAGE =
  'quire export --out DIR [--type TYPE]... [--published-only] [--locale CODE] [--image-widths 480,960 [--image-formats avif,webp]] [--since [CURSOR]] [--watch] [--db FILE | --database postgres://...]';

/** Where a command writes: its result to `out`, progress and problems to `err`. */
export interface CommandStreams {
  out: NodeJS.WritableStream;
  err: ProgressStream;
  /** The variables the command reads its defaults from (QUIRE_DB...; `main` passes the process's); none when left out. */
  env?: NodeJS.ProcessEnv;
  /** Ends a command that keeps running (`quire export --watch`); SIGINT and SIGTERM when left out. */
  stop?: AbortSignal;
  /** `quire export`: rows a page holds on average (`ExportOptions.rowsPerPage`), for tests; the default when left out. */
  rowsPerPage?: number;
}

/** The options `quire export` takes. */
export const EXPORT_OPTIONS = {
  out: { type: 'string' },
  type: { type: 'string', multiple: true },
  'published-only': { type: 'boolean' },
  since: { type: 'string' },
  watch: { type: 'boolean' },
  'image-widths': { type: 'string' },
  'image-formats': { type: 'string' },
  locale: { type: 'string' },
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
 * server; with `--since`, only what changed since the export's cursor; with `--watch`, then each
 * change as it commits, until stopped. Progress on a terminal, one summary line a run; returns the
 * exit code (0 done, 1 failed, 2 usage).
 */
export async function exportCommand(
  args: string[],
  streams: CommandStreams = { out: process.stdout, err: process.stderr },
): Promise<number> {
  let values: {
    out?: string;
    type?: string[];
    'published-only'?: boolean;
    locale?: string;
    since?: string;
    watch?: boolean;
    'image-widths'?: string;
    'image-formats'?: string;
    db?: string;
    database?: string;
  };
  let choice: DatabaseChoice;
  let images: ImageVariantSettings | null = null;
  try {
    const parsed = parseArgs({
      args: sinceWithoutValue(args),
      strict: true,
      allowPositionals: false,
      options: EXPORT_OPTIONS,
    });
    values = parsed.values;
    if (!values.out) throw new Error('--out names the folder to write');
    if (values.since !== undefined && (values.type || values['published-only'] || values.locale !== undefined)) {
      throw new Error('--since continues the export in --out with its own --type, --published-only and --locale');
    }
    if (values.since !== undefined && (values['image-widths'] || values['image-formats'])) {
      throw new Error('--since continues the export in --out with its own --image-widths and --image-formats');
    }
    if (values['image-formats'] !== undefined && values['image-widths'] === undefined) {
      throw new Error('--image-formats needs --image-widths');
    }
    if (values['image-widths'] !== undefined) {
      images = {
        widths: parseImageSizes(values['image-widths'], '--image-widths'),
        formats: parseImageFormats(values['image-formats'] ?? 'avif,webp', '--image-formats'),
      };
    }
    choice = chooseDatabase(values, streams.env ?? {});
  } catch (error) {
    say(streams.err, `quire export: ${redactDatabaseUrls((error as Error).message)}. Usage: ${EXPORT_USAGE}`);
    return 2;
  }
  const dir = resolve(values.out);
  const site = await openForCommand('export', choice, streams);
  if (!site) return 1;
  const run = async (since: string | undefined, quiet: boolean): Promise<boolean> => {
    const progress = progressLine(streams.err);
    try {
      const summary = await exportSite(site.services, site.media, dir, {
        types: values.type ?? [],
        publishedOnly: values['published-only'] ?? false,
        locale: values.locale,
        progress: progress.update,
        since,
        images,
        library: site.database.db,
        rowsPerPage: streams.rowsPerPage,
      }).finally(() => progress.done());
      if (summary.inFull) say(streams.err, `quire export: ${summary.inFull}`);
      if (!quiet || summary.written + summary.removed > 0) say(streams.out, summaryLine(summary, dir));
      return true;
    } catch (error) {
      const message = error instanceof ExportError ? error.message : `export failed: ${(error as Error).message}`;
      say(streams.err, `quire export: ${redactDatabaseUrls(message).split('\n')[0]}`);
      return false;
    }
  };
  try {
    if (!(await run(values.since, false))) return 1;
    if (!values.watch) return 0;
    return await watchChanges(site.services.changes, streams.stop ?? interruption(), () => run('', true));
  } finally {
    await site.close();
  }
}

/** One run's summary line. */
function summaryLine(summary: ExportSummary, dir: string): string {
  const missing =
    summary.missingMedia.length > 0 ? `; ${summary.missingMedia.length} media files missing from the store` : '';
  return (
    `Exported ${summary.types} content types, ${summary.rows} rows and ${summary.media} media files to ${dir}: ` +
    `${summary.written} files written, ${summary.unchanged} unchanged, ${summary.removed} removed${missing}`
  );
}

/** `--since` with nothing after it, or a flag next, as `--since=` (continue from the recorded cursor). */
function sinceWithoutValue(args: readonly string[]): string[] {
  return args.map((arg, index) =>
    arg === '--since' && (index === args.length - 1 || args[index + 1].startsWith('--')) ? '--since=' : arg,
  );
}

/** Aborts on the first SIGINT or SIGTERM, so a run under way finishes before the command ends. */
function interruption(): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  controller.signal.addEventListener('abort', () => {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  });
  return controller.signal;
}

/**
 * Runs `apply` each time the feed says changes committed, one run at a time (calls meanwhile make
 * one more run), until `stop`; 0 when stopped, 1 when a run failed.
 */
async function watchChanges(feed: ChangeFeed, stop: AbortSignal, apply: () => Promise<boolean>): Promise<number> {
  let pending = false;
  let wake: (() => void) | null = null;
  const unsubscribe = feed.subscribe(() => {
    pending = true;
    wake?.();
  });
  const ended = () => wake?.();
  stop.addEventListener('abort', ended);
  // The feed's own timer does not keep the process alive; this one does while watching.
  const alive = setInterval(() => {}, 60_000);
  try {
    while (!stop.aborted) {
      if (!pending) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      wake = null;
      if (stop.aborted) break;
      pending = false;
      if (!(await apply())) return 1;
    }
    return 0;
  } finally {
    clearInterval(alive);
    stop.removeEventListener('abort', ended);
    unsubscribe();
  }
}
