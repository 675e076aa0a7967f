import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chooseDatabase, type DatabaseChoice } from '../config/database-choice.js';
import { redactDatabaseUrls } from '../db/database.js';
import { type CommandStreams, openForCommand } from '../export/export-command.js';
import { currentDocument } from '../http/describe-routes.js';
import { typeScriptDeclarations } from './types-generator.js';

/** How to call `quire types`. */
export const TYPES_USAGE = 'quire types [--out FILE] [--db FILE | --database postgres://...]';

/** The options `quire types` takes. */
export const TYPES_OPTIONS = {
  out: { type: 'string' },
  db: { type: 'string' },
  database: { type: 'string' },
} as const;

const say = (stream: NodeJS.WritableStream, line: string) => stream.write(`${line}\n`);

/**
 * `quire types`: the TypeScript declarations of the site's content types (as `GET /api/types.d.ts`
 * serves them), to standard output or to `--out FILE` (left alone when unchanged). Returns the exit
 * code (0 done, 1 failed, 2 usage).
 */
export async function typesCommand(
  args: string[],
  streams: CommandStreams = { out: process.stdout, err: process.stderr },
): Promise<number> {
  let out: string | undefined;
  let choice: DatabaseChoice;
  try {
    const { values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: TYPES_OPTIONS,
    });
    out = values.out;
    choice = chooseDatabase(values, streams.env ?? {});
  } catch (error) {
    say(streams.err, `quire types: ${redactDatabaseUrls((error as Error).message)}. Usage: ${TYPES_USAGE}`);
    return 2;
  }
  const site = await openForCommand('types', choice, streams);
  if (!site) return 1;
  try {
    const document = await currentDocument(site.services);
    const declarations = typeScriptDeclarations(document);
    if (out === undefined) {
      streams.out.write(declarations);
      return 0;
    }
    const file = resolve(out);
    const current = await readFile(file, 'utf8').catch(() => null);
    if (current !== declarations) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, declarations);
    }
    const count = document['x-quire-content-types'].length;
    say(streams.out, `${current === declarations ? 'Unchanged' : 'Wrote'} ${file}: types of ${count} content types`);
    return 0;
  } catch (error) {
    say(streams.err, `quire types: ${redactDatabaseUrls((error as Error).message).split('\n')[0]}`);
    return 1;
  } finally {
    await site.close();
  }
}
