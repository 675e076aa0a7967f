import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatByteSize } from '../../common/byte-size.js';
import { defaultDatabaseFile } from '../config/app-paths.js';
import { BackupError, requireQuireDatabase } from '../db/backup-service.js';
import { mediaReferenceSources } from '../db/media-reference-repository.js';
import { openSqliteFile } from '../db/sqlite-dialect.js';
import { findUnusedMedia, PRUNE_GRACE_MS, pruneUnusedMedia, type UnusedMedia } from './media-prune.js';
import { mediaDirFor } from './media-store.js';

/** How to call `quire media`. */
export const MEDIA_USAGE = 'quire media prune [--db FILE] [--yes]';

/** Where the command writes: the files and the summary to `out`, problems to `err`. */
export interface MediaStreams {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
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
  try {
    parsed = parse(args);
    if (parsed.positionals.join(' ') !== 'prune') throw new Error('the only media command is prune');
  } catch (error) {
    say(streams.err, `quire media: ${(error as Error).message}. Usage: ${MEDIA_USAGE}`);
    return 2;
  }
  const dbFile = resolve(parsed.values.db ?? (process.env.QUIRE_DB || defaultDatabaseFile()));
  const root = mediaDirFor(dbFile);
  const deleting = parsed.values.yes === true;
  let unused: UnusedMedia;
  try {
    requireQuireDatabase(dbFile, 'database', {});
    const raw = openSqliteFile(dbFile, { readonly: true });
    try {
      const sources = mediaReferenceSources(raw);
      unused = deleting ? await pruneUnusedMedia(root, sources) : await findUnusedMedia(root, sources);
    } finally {
      raw.close();
    }
  } catch (error) {
    const message = error instanceof BackupError ? error.message : (error as Error).message.split('\n')[0];
    say(streams.err, `quire media: ${message}`);
    return 1;
  }
  for (const file of unused.files)
    say(streams.out, `${deleting ? 'deleted' : 'unused'} media/${file.path} (${file.size} bytes)`);
  say(streams.out, summary(unused, deleting));
  return 0;
}

function summary({ files, bytes, total }: UnusedMedia, deleted: boolean): string {
  const hours = PRUNE_GRACE_MS / 3_600_000;
  const young = `uploaded in the last ${hours === 1 ? 'hour' : `${hours} hours`}`;
  if (files.length === 0) return `No unused media: each of the ${total} stored files is used by a row or was ${young}.`;
  const what = `${files.length} unused media ${files.length === 1 ? 'file' : 'files'} (${formatByteSize(bytes)}) of ${total}`;
  if (deleted) return `Deleted ${what}; files used by a row or ${young} were kept.`;
  return `Would delete ${what}; run quire media prune --yes to delete them.`;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { db: { type: 'string' }, yes: { type: 'boolean' } },
  });
}
