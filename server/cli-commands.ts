import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { accountCommand } from './accounts/account-command.js';
import { type SignInChoices, signInChoices } from './accounts/single-sign-on-config.js';
import { parseTwoFactorRequirement, type TwoFactorRequirement } from './accounts/two-factor-service.js';
import { DEFAULT_AUDIT_DAYS } from './audit/audit-service.js';
import { backupCommand } from './backup/backup-command.js';
import { copyCommand } from './backup/copy-command.js';
import { checkFlags, commandHelp, didYouMean, overviewHelp } from './cli/command-help.js';
import { quireCommands } from './cli/command-list.js';
import { chooseDatabase, type DatabaseFlags } from './config/database-choice.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './config/listen-defaults.js';
import { builtEditorDir, packageRoot } from './config/package-root.js';
import { addDemoContent } from './content/demo-content.js';
import { postgresBackupPlace } from './db/postgres/postgres-backup.js';
import { PostgresConnectionError } from './db/postgres/postgres-errors.js';
import { describeTarget, type PostgresTarget, redactPostgresUrl } from './db/postgres/postgres-url.js';
import { exportCommand } from './export/export-command.js';
import { DEFAULT_BODY_LIMIT } from './http/body-parsing.js';
import { parseTrustedProxies } from './http/client-address.js';
import { isLoopbackListenAddress, normalizeHostname } from './http/host-guard.js';
import { normalizeOrigin } from './http/origin-guard.js';
import { checkToken } from './http/token-auth.js';
import { importCommand } from './import/import-command.js';
import { mediaCommand } from './media/media-prune-command.js';
import { DEFAULT_UPLOAD_LIMIT } from './media/media-store.js';
import { serverEntryScript } from './process/server-entry.js';
import { isSupervisedServer, superviseServer, watchSupervisor } from './process/server-supervisor.js';
import { DEFAULT_TRASH_DAYS } from './revisions/revision-service.js';
import { type RunningServer, startServer } from './server.js';
import { typesCommand } from './types-gen/types-command.js';

export { DEFAULT_HOST, DEFAULT_PORT } from './config/listen-defaults.js';

// The `quire` command's commands; its entry point is cli.ts, which loads this module only when a
// command runs here (not in the supervisor of `quire serve`).

/** Said after a mistake in `quire serve`'s options. */
const SERVE_USAGE = 'Usage: quire serve [options] (quire help serve lists them)';

/** A command-line mistake: printed as one line, exit code 2. */
export class UsageError extends Error {}

/**
 * Parsed `serve` options. Sign-in (SignInChoices): single sign-on through an OpenID Connect
 * provider (`--oidc-*`), password sign-in (off with `--no-password-sign-in`) and `--public-url`.
 */
export interface ServeOptions extends SignInChoices {
  /** The SQLite file (unused when `postgres` is set). */
  dbFile: string;
  /** The PostgreSQL database (`--database URL` or `QUIRE_DATABASE_URL`), or null for SQLite. */
  postgres: PostgresTarget | null;
  port: number;
  host: string;
  editorName: string;
  demo: boolean;
  bodyLimit: number;
  /** Largest uploaded file in bytes (`--upload-limit`). */
  uploadLimit: number;
  /** Extra hostnames to serve (`--allow-host`, repeatable), normalized. */
  allowedHosts: string[];
  /** Origins allowed to read cross-origin (`--cors-origin`, repeatable), normalized. */
  corsOrigins: string[];
  /** API token (`--token` or QUIRE_TOKEN); generated at start when listening beyond loopback. */
  token: string | null;
  /** Reverse proxies whose X-Forwarded-For names the client (`--trust-proxy` or QUIRE_TRUST_PROXY); none by default. */
  trustProxy: string[];
  /** Who must enrol in two-factor sign-in (`--require-2fa admins|everyone` or QUIRE_REQUIRE_2FA); no one by default. */
  requireTwoFactor: TwoFactorRequirement;
  /** Scheduled backups (off with `--no-backups`, for throwaway databases such as the benchmark's). */
  backups: boolean;
  /** Where a PostgreSQL site's scheduled backups go (`--backup-dir`); null for the default. */
  backupDir: string | null;
  /** Revisions kept per row (`--keep-revisions`, QUIRE_KEEP_REVISIONS); null keeps all. */
  keepRevisions: number | null;
  /** Days a deleted row stays restorable (`--trash-days`, QUIRE_TRASH_DAYS). */
  trashDays: number;
  /** Days an audit event is kept (`--audit-days`, QUIRE_AUDIT_DAYS). */
  auditDays: number;
}

/** Parses `serve` arguments; throws UsageError with a one-line explanation. */
export function parseServeArgs(args: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. ${SERVE_USAGE}`);
  }
  const { values } = parsed;
  // An exported but empty variable means "not set", as in most shells' tooling.
  const fromEnv = (name: string): string | undefined => env[name] || undefined;
  const port = Number(values.port ?? fromEnv('QUIRE_PORT') ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (0 picks a free port)`);
  }
  const bodyLimit = Number(values['body-limit'] ?? DEFAULT_BODY_LIMIT);
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1024)
    throw new UsageError('--body-limit must be at least 1024 bytes');
  const uploadLimit = Number(values['upload-limit'] ?? DEFAULT_UPLOAD_LIMIT);
  if (!Number.isInteger(uploadLimit) || uploadLimit < 1024)
    throw new UsageError('--upload-limit must be a whole number of bytes, at least 1024');
  const database = parseDatabaseFlags(values, env);
  if (values['backup-dir'] !== undefined && !database.postgres) {
    throw new UsageError('--backup-dir is for --database; a SQLite file keeps its backups in backups/ beside it');
  }
  const keepRevisions = wholeNumberFlag(
    '--keep-revisions',
    values['keep-revisions'] ?? fromEnv('QUIRE_KEEP_REVISIONS'),
  );
  const trashDays = wholeNumberFlag('--trash-days', values['trash-days'] ?? fromEnv('QUIRE_TRASH_DAYS'));
  const requirement = values['require-2fa'] ?? fromEnv('QUIRE_REQUIRE_2FA');
  let requireTwoFactor: TwoFactorRequirement;
  try {
    requireTwoFactor = parseTwoFactorRequirement(requirement);
  } catch (error) {
    throw new UsageError(`--require-2fa: ${(error as Error).message}`);
  }
  const auditDays = wholeNumberFlag('--audit-days', values['audit-days'] ?? fromEnv('QUIRE_AUDIT_DAYS'));
  return {
    ...database,
    keepRevisions,
    trashDays: trashDays ?? DEFAULT_TRASH_DAYS,
    requireTwoFactor,
    auditDays: auditDays ?? DEFAULT_AUDIT_DAYS,
    port,
    host: values.host ?? fromEnv('QUIRE_HOST') ?? DEFAULT_HOST,
    editorName: values.editor ?? fromEnv('QUIRE_EDITOR') ?? osUserName(),
    demo: values.demo ?? false,
    bodyLimit,
    uploadLimit,
    backups: !values['no-backups'],
    backupDir: values['backup-dir'] === undefined ? null : resolve(values['backup-dir']),
    ...parseSecurityFlags(values, fromEnv('QUIRE_TOKEN'), fromEnv('QUIRE_TRUST_PROXY')),
    ...parseSignInFlags(values, fromEnv),
  };
}

/** A count flag (revisions, days): a whole number from 1, or null when not given. */
function wholeNumberFlag(flag: string, raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (value < 1) throw new UsageError(`${flag} must be a whole number, at least 1`);
  return value;
}

/** `--oidc-*`, `--no-password-sign-in` and `--public-url` (see signInChoices), as a usage error when wrong. */
function parseSignInFlags(values: Parameters<typeof signInChoices>[0], fromEnv: (name: string) => string | undefined) {
  try {
    return signInChoices(values, fromEnv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `--db FILE` or `--database URL` (see database-choice.ts), as a usage error when they conflict. */
function parseDatabaseFlags(values: DatabaseFlags, env: NodeJS.ProcessEnv): Pick<ServeOptions, 'dbFile' | 'postgres'> {
  try {
    return chooseDatabase(values, env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `--allow-host`, `--cors-origin`, `--token`, `--trust-proxy`, each checked so a typo fails at start, not per request. */
function parseSecurityFlags(
  values: { 'allow-host'?: string[]; 'cors-origin'?: string[]; token?: string; 'trust-proxy'?: string },
  envToken: string | undefined,
  envTrustProxy: string | undefined,
): Pick<ServeOptions, 'allowedHosts' | 'corsOrigins' | 'token' | 'trustProxy'> {
  const allowedHosts = (values['allow-host'] ?? []).map((name) => {
    const hostname = normalizeHostname(name);
    if (hostname === null)
      throw new UsageError(`--allow-host ${JSON.stringify(name)}: give a host name without scheme or port`);
    return hostname;
  });
  const corsOrigins = (values['cors-origin'] ?? []).map((origin) => {
    try {
      return normalizeOrigin(origin);
    } catch (error) {
      throw new UsageError(`--cors-origin ${(error as Error).message}`);
    }
  });
  const given = values.token ?? envToken;
  let token: string | null = null;
  if (given !== undefined) {
    try {
      token = checkToken(given);
    } catch (error) {
      throw new UsageError(`--token: ${(error as Error).message}`);
    }
  }
  const proxies = values['trust-proxy'] ?? envTrustProxy;
  let trustProxy: string[] = [];
  if (proxies !== undefined) {
    try {
      trustProxy = parseTrustedProxies(proxies);
    } catch (error) {
      throw new UsageError(`--trust-proxy ${JSON.stringify(proxies)}: ${(error as Error).message}`);
    }
  }
  return { allowedHosts, corsOrigins, token, trustProxy };
}

/** The options `quire serve` takes. */
export const SERVE_OPTIONS = {
  db: { type: 'string' },
  database: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  editor: { type: 'string' },
  demo: { type: 'boolean' },
  'no-backups': { type: 'boolean' },
  'backup-dir': { type: 'string' },
  'body-limit': { type: 'string' },
  'upload-limit': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'cors-origin': { type: 'string', multiple: true },
  token: { type: 'string' },
  'trust-proxy': { type: 'string' },
  'oidc-issuer': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-role': { type: 'string', multiple: true },
  'oidc-name': { type: 'string' },
  'oidc-invited-only': { type: 'boolean' },
  'no-password-sign-in': { type: 'boolean' },
  'public-url': { type: 'string' },
  'require-2fa': { type: 'string' },
  'keep-revisions': { type: 'string' },
  'trash-days': { type: 'string' },
  'audit-days': { type: 'string' },
} as const;

function parse(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: false, options: SERVE_OPTIONS });
}

function osUserName(): string {
  try {
    return userInfo().username || 'editor';
  } catch {
    return 'editor';
  }
}

/** Turns a start-up failure into the one line a user reads. */
export function explainStartError(error: unknown, options: Pick<ServeOptions, 'dbFile' | 'port' | 'host'>): string {
  // Already one line naming host and port, without credentials.
  if (error instanceof PostgresConnectionError) return error.message;
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
  return `Quire could not start: ${redactPostgresUrl((error as Error).message ?? String(error))}`;
}

/**
 * `serve`: starts the API and editor; stops cleanly on SIGINT/SIGTERM or when its supervisor
 * exits (`main` runs it under one; see server-supervisor.ts).
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const server = await startServer({
    dbFile: options.dbFile,
    postgres: options.postgres,
    port: options.port,
    host: options.host,
    editorName: options.editorName,
    editorDir: builtEditorDir(),
    bodyLimit: options.bodyLimit,
    uploadLimit: options.uploadLimit,
    allowedHosts: options.allowedHosts,
    corsOrigins: options.corsOrigins,
    token: options.token,
    trustProxy: options.trustProxy,
    singleSignOn: options.singleSignOn,
    passwordSignIn: options.passwordSignIn,
    publicUrl: options.publicUrl,
    twoFactor: { requirement: options.requireTwoFactor },
    backups: options.backups ? { ...(options.backupDir ? { dir: options.backupDir } : {}) } : false,
    revisions: { keepRevisions: options.keepRevisions, trashDays: options.trashDays },
    audit: { days: options.auditDays },
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
  const where = options.postgres
    ? `PostgreSQL database ${describeTarget(options.postgres)}`
    : `database ${options.dbFile}`;
  console.log(`Quire API listening on ${server.origin}/api (${where})`);
  if (options.postgres && server.backups) {
    const place = postgresBackupPlace(options.postgres, options.backupDir ?? undefined);
    console.log(`Backups (at start, then daily): ${place.dir}`);
  }
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
function answerHelp(argv: string[]): number | null {
  const [first, second] = argv;
  if (first === '--version' || first === '-v' || first === 'version') {
    console.log(quireVersion());
    return 0;
  }
  if (first !== 'help' && first !== '--help' && first !== '-h') return null;
  const commands = quireCommands(SERVE_OPTIONS);
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

/** Entry point: `quire [serve] [options]`. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv[0]?.startsWith('-') || argv.length === 0 ? ['serve', ...argv] : argv;
  const answered = answerHelp(argv);
  if (answered !== null) return answered;
  const entry = quireCommands(SERVE_OPTIONS).find((candidate) => candidate.name === command);
  if (!entry) {
    const names = quireCommands(SERVE_OPTIONS).map((candidate) => candidate.name);
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
  if (command === 'backup' || command === 'restore') return backupCommand(command, rest);
  if (command === 'import') return importCommand(rest);
  if (command === 'media') return mediaCommand(rest);
  if (command === 'copy') return copyCommand(rest);
  if (command === 'user' || command === 'token') return accountCommand(command, rest);
  if (command === 'export') return exportCommand(rest);
  if (command === 'types') return typesCommand(rest);
  let options: ServeOptions;
  try {
    options = parseServeArgs(rest);
  } catch (error) {
    console.error(`quire: ${(error as Error).message}`);
    return 2;
  }
  // The server runs in a child process, so that SIGTERM stops it even while a query blocks it.
  if (!isSupervisedServer()) return superviseServer({ args: [serverEntryScript(process.argv[1]), 'serve', ...rest] });
  try {
    await serve(options);
    return -1; // keeps running
  } catch (error) {
    console.error(`quire: ${explainStartError(error, options)}`);
    return 1;
  }
}
