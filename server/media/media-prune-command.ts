import { parseArgs } from 'node:util';
import { formatByteSize } from '../../common/byte-size.js';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import { BackupError } from '../backup/backup-service.js';
import { recordMediaRemovedInFeed } from '../changes/change-feed-service.js';
import { type ProgressStream, progressLine } from '../cli/progress-line.js';
import { chooseDatabase, type DatabaseChoice } from '../config/database-choice.js';
import { type DatabaseSite, databaseSite, redactDatabaseUrls } from '../db/database.js';
import { DatabaseUnavailableError } from '../db/database-errors.js';
import { AssetRepository } from '../db/repositories/asset-repository.js';
import { PRUNE_GRACE_MS, type UnusedMedia } from './media-prune.js';

/** How to call `quire media`. */
export const MEDIA_USAGE = 'quire media prune [--db FILE | --database postgres://...] [--yes]';

/** Where the command writes: the files and the summary to `out`, progress and problems to `err`. */
export interface MediaStreams {
  out: NodeJS.WritableStream;
  err: ProgressStream;
  /** The variables the command reads its defaults from (QUIRE_DB...; `main` passes the process's); none when left out. */
  env?: NodeJS.ProcessEnv;
}

/**
 * `quire media prune`: lists the uploads no row uses (one line each, then a one-line summary), and
 * with `--yes` deletes them. Files uploaded in the last hour are never listed. Works while a server
 * runs (it only reads the database). Returns the exit code (0 done, 1 failed, 2 usage).
 */
export async function mediaCommand(
  args: string[],
  streams: MediaStreams = { out: process.stdout, err: process.stderr },
): Promise<number> {
  const say = (stream: NodeJS.WritableStream, line: string) => stream.write(`${line}\n`);
  let parsed: ReturnType<typeof parse>;
  let choice: DatabaseChoice;
  try {
    parsed = parse(args);
    if (parsed.positionals.join(' ') !== 'prune') throw new Error('the only media command is prune');
    choice = chooseDatabase(parsed.values, streams.env ?? {});
  } catch (error) {
    say(streams.err, `quire media: ${redactDatabaseUrls((error as Error).message)}. Usage: ${MEDIA_USAGE}`);
    return 2;
  }
  const deleting = parsed.values.yes === true;
  let unused: UnusedMedia;
  const progress = progressLine(streams.err);
  progress.update(deleting ? 'Deleting the media no row uses...' : 'Looking for media no row uses...');
  try {
    unused = await databaseSite(choice)
      .then(async (site) => {
        const found = await site.pruneMedia(deleting);
        if (deleting && found.files.length > 0) await recordRemoved(site, found);
        return found;
      })
      .finally(() => progress.done());
  } catch (error) {
    const known = error instanceof BackupError || error instanceof DatabaseUnavailableError;
    const message = known ? (error as Error).message : redactDatabaseUrls((error as Error).message).split('\n')[0];
    say(streams.err, `quire media: ${message}`);
    return 1;
  }
  for (const file of unused.files)
    say(streams.out, `${deleting ? 'deleted' : 'unused'} media/${file.path} (${file.size} bytes)`);
  say(streams.out, summary(unused, deleting));
  return 0;
}

/**
 * Takes the deleted uploads out of the media library and puts them in the change feed, so a site
 * that follows it drops them too.
 */
async function recordRemoved(site: DatabaseSite, removed: UnusedMedia): Promise<void> {
  const database = await site.open();
  try {
    const paths = removed.files.map((file) => `${MEDIA_URL_PREFIX}${file.path}`);
    await new AssetRepository(database.db).deleteByPaths(paths);
    await recordMediaRemovedInFeed(database.db, database.engine, paths);
  } finally {
    await database.close();
  }
}

function summary({ files, bytes, total }: UnusedMedia, deleted: boolean): string {
  const hours = PRUNE_GRACE_MS / 3_600_000;
  const young = `uploaded in the last ${hours === 1 ? 'hour' : `${hours} hours`}`;
  if (files.length === 0) return `No unused media: each of the ${total} stored files is used by a row or was ${young}.`;
  const what = `${files.length} unused media ${files.length === 1 ? 'file' : 'files'} (${formatByteSize(bytes)}) of ${total}`;
  if (deleted) return `Deleted ${what}; files used by a row or ${young} were kept.`;
  return `Would delete ${what}; run quire media prune --yes to delete them.`;
}

/** The options `quire media prune` takes. */
export const MEDIA_OPTIONS = {
  db: { type: 'string' },
  database: { type: 'string' },
  yes: { type: 'boolean' },
} as const;

function parse(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: true, options: MEDIA_OPTIONS });
}
