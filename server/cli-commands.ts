import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountCommand } from './accounts/account-command.js';
import { backupCommand } from './backup/backup-command.js';
import { copyCommand } from './backup/copy-command.js';
import { checkFlags, commandHelp, didYouMean, overviewHelp } from './cli/command-help.js';
import { quireCommands } from './cli/command-list.js';
import { defaultDatabaseFile } from './config/app-paths.js';
import { builtEditorDir, packageRoot } from './config/package-root.js';
import { type QuireConfig, readQuireConfig, SERVE_OPTIONS } from './config/quire-config.js';
import { addDemoContent } from './content/demo-content.js';
import { describeLocation, redactDatabaseUrls } from './db/database.js';
import { DatabaseUnavailableError } from './db/database-errors.js';
import { exportCommand } from './export/export-command.js';
import { isLoopbackListenAddress } from './http/host-guard.js';
import { importCommand } from './import/import-command.js';
import { mediaCommand } from './media/media-prune-command.js';
import { serverEntryScript } from './process/server-entry.js';
import { isSupervisedServer, superviseServer, watchSupervisor } from './process/server-supervisor.js';
import { type RunningServer, startServer } from './server.js';
import { typesCommand } from './types-gen/types-command.js';

export { DEFAULT_HOST, DEFAULT_PORT } from './config/listen-defaults.js';

// The `quire` command's commands; its entry point is cli.ts, which loads this module only when a
// command runs here (not in the supervisor of `quire serve`).

/** Turns a start-up failure into the one line a user reads. */
export function explainStartError(error: unknown, options: Pick<QuireConfig, 'dbFile' | 'port' | 'host'>): string {
  // Already one line naming host and port, without credentials.
  if (error instanceof DatabaseUnavailableError) return error.message;
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE')
    return `Port ${options.port} is already in use on ${options.host}; pass --port with another number, or --port 0 for a free one.`;
  if (code === 'EACCES') return `Not allowed to listen on ${options.host}:${options.port}; pick a port above 1024.`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `Cannot listen on host ${options.host}: it is not an address of this machine.`;
  if (code === 'SQLITE_NOTADB') return `${options.dbFile} is not a Quire database (not a SQLite file).`;
  if (code === 'SQLITE_CANTOPEN' || code === 'EACCES' || code === 'EROFS')
    return `Cannot open the database ${options.dbFile}: check that its folder exists and is writable.`;
  // A driver message could quote a connection string: never print credentials.
  return `Quire could not start: ${redactDatabaseUrls((error as Error).message ?? String(error))}`;
}

/**
 * `serve`: starts the API and editor with `options` (read once by `readQuireConfig`); stops cleanly
 * on SIGINT/SIGTERM or when its supervisor exits (`main` runs it under one; see server-supervisor.ts).
 */
export async function serve(options: QuireConfig): Promise<RunningServer> {
  const server = await startServer({
    dbFile: options.dbFile,
    postgres: options.postgres,
    port: options.port,
    host: options.host,
    editorName: options.editorName,
    editorDir: builtEditorDir(),
    bodyLimit: options.bodyLimit,
    uploadLimit: options.uploadLimit,
    images: options.images,
    allowedHosts: options.allowedHosts,
    corsOrigins: options.corsOrigins,
    token: options.token,
    trustProxy: options.trustProxy,
    singleSignOn: options.singleSignOn,
    passwordSignIn: options.passwordSignIn,
    publicUrl: options.publicUrl,
    sessionIdleMs: options.sessionIdleMs,
    searchIndexDir: options.searchIndexDir,
    twoFactor: { requirement: options.requireTwoFactor },
    backups: options.backups ? { dir: options.backupDir } : false,
    revisions: { keepRevisions: options.keepRevisions, trashDays: options.trashDays },
    audit: { days: options.auditDays },
    changes: { days: options.changesDays },
    events: { limits: options.eventStreams },
    // Before the server answers, so its first request already sees every demo row.
    beforeListen: options.demo
      ? async (services) => {
          const added = await addDemoContent(services.registry, services.rows);
          console.log(
            added > 0 ? `Added ${added} demo rows.` : 'Demo rows skipped: their starter types hold rows or are gone.',
          );
        }
      : undefined,
  });
  console.log(`Quire API listening on ${server.origin}/api (${describeLocation(options)})`);
  // Backups beside a SQLite file go without saying; elsewhere the line says where they are.
  if (options.postgres && server.backups) console.log(`Backups (at start, then daily): ${server.backups.place.dir}`);
  console.log(`Editor: ${server.origin}/`);
  if (options.singleSignOn) {
    // The provider must know this address before anyone can sign in through it.
    const callback = `${options.publicUrl ?? server.origin}/api/auth/oidc/callback`;
    console.log(`Single sign-on: ${options.singleSignOn.name}; register ${callback} as the client's redirect URI.`);
  }
  if (!options.passwordSignIn) console.log('Password sign-in is off: admins manage accounts with quire user.');
  if (server.token && server.token !== options.token) {
    console.log(`API token (generated for this run): ${server.token}`);
    console.log('Requests must send "Authorization: Bearer <token>"; the editor asks for it once.');
  } else if (server.token) {
    console.log('API requests must send the token given with --token as "Authorization: Bearer <token>".');
  }
  if (!isLoopbackListenAddress(options.host)) {
    console.log(`Listening beyond this machine (${options.host}): traffic is plain HTTP, not encrypted.`);
  }
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Stopping Quire: ${reason}.`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // `on`, not `once`: under a supervisor, a terminal's Ctrl+C arrives twice (from the terminal and
  // forwarded), and the second must not fall through to Node's default, which exits at once.
  process.on('SIGINT', () => stop('received SIGINT'));
  process.on('SIGTERM', () => stop('received SIGTERM'));
  watchSupervisor(stop);
  return server;
}

/** Quire's version, as its package.json says. */
export function quireVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * `quire help [COMMAND]`, `quire --help` and `quire --version` (or `-v`): printed, and the exit code
 * (0, or 2 for help on a command that does not exist); null for any other command line.
 */
function answerHelp(argv: string[], env: NodeJS.ProcessEnv): number | null {
  const [first, second] = argv;
  if (first === '--version' || first === '-v' || first === 'version') {
    console.log(quireVersion());
    return 0;
  }
  if (first !== 'help' && first !== '--help' && first !== '-h') return null;
  const commands = quireCommands(SERVE_OPTIONS, defaultDatabaseFile(process.platform, env));
  if (second === undefined) {
    console.log(overviewHelp(commands, quireVersion()));
    return 0;
  }
  const entry = commands.find((candidate) => candidate.name === second);
  if (entry) {
    console.log(commandHelp(entry));
    return 0;
  }
  const names = commands.map((candidate) => candidate.name);
  console.error(`quire help: no command ${JSON.stringify(second)}${didYouMean(second, names)} (quire help lists them)`);
  return 2;
}

/**
 * Entry point: `quire [serve] [options]`, with the environment `env` (cli.ts passes the process's),
 * which the commands and `readQuireConfig` read their defaults from.
 */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv[0]?.startsWith('-') || argv.length === 0 ? ['serve', ...argv] : argv;
  const answered = answerHelp(argv, env);
  if (answered !== null) return answered;
  const commands = quireCommands(SERVE_OPTIONS, defaultDatabaseFile(process.platform, env));
  const entry = commands.find((candidate) => candidate.name === command);
  if (!entry) {
    const names = commands.map((candidate) => candidate.name);
    console.error(
      `quire: unknown command ${JSON.stringify(command)}${didYouMean(command, names)} (quire help lists the commands)`,
    );
    return 2;
  }
  const flags = checkFlags(entry, rest);
  if (flags.kind === 'help') {
    console.log(commandHelp(entry));
    return 0;
  }
  if (flags.kind === 'unknown') {
    console.error(`quire ${command}: ${flags.message}`);
    return 2;
  }
  const out = process.stdout;
  const err = process.stderr;
  if (command === 'backup' || command === 'restore') return backupCommand(command, rest, env);
  if (command === 'import') return importCommand(rest, { out, err, env });
  if (command === 'media') return mediaCommand(rest, { out, err, env });
  if (command === 'copy') return copyCommand(rest, { out, err, env });
  if (command === 'user' || command === 'token')
    return accountCommand(command, rest, { input: process.stdin, out, err, env });
  if (command === 'export') return exportCommand(rest, { out, err, env });
  if (command === 'types') return typesCommand(rest, { out, err, env });
  let options: QuireConfig;
  try {
    options = readQuireConfig(rest, env);
  } catch (error) {
    console.error(`quire: ${(error as Error).message}`);
    return 2;
  }
  // The server runs in a child process, so that SIGTERM stops it even while a query blocks it.
  if (!isSupervisedServer(env)) {
    return superviseServer({ args: [serverEntryScript(process.argv[1]), 'serve', ...rest], env });
  }
  try {
    await serve(options);
    return -1; // keeps running
  } catch (error) {
    console.error(`quire: ${explainStartError(error, options)}`);
    return 1;
  }
}
