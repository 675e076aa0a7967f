import { parseArgs } from 'node:util';
import type { AccountSummary, TokenSummary } from '../../common/api-contract.js';
import { CLI_ACTOR, recordAccountChanged, recordAccountCreated, recordTokenCreated } from '../audit/account-audit.js';
import { cliAudit } from '../audit/cli-audit.js';
import { BackupError } from '../backup/backup-service.js';
import { didYouMean } from '../cli/command-help.js';
import { chooseDatabase, type DatabaseChoice } from '../config/database-choice.js';
import { databaseSite, type QuireDb, redactDatabaseUrls } from '../db/database.js';
import { DatabaseUnavailableError } from '../db/database-errors.js';
import { AccountRepository } from '../db/repositories/account-repository.js';
import { TwoFactorRepository } from '../db/repositories/two-factor-repository.js';
import { AppError } from '../errors/app-error.js';
import { checkName, checkRole } from './account-input.js';
import { AccountService } from './account-service.js';
import { PromptCancelled, type PromptInput, readNewPassword } from './password-prompt.js';
import { TokenService } from './token-service.js';
import { TwoFactorService } from './two-factor-service.js';

const DB = '[--db FILE | --database postgres://...]';

/** How to call `quire user`. */
export const USER_USAGE = `quire user add NAME --role admin|editor|author|viewer [--types a,b] [--sso] | user list | user role NAME ROLE | user passwd NAME | user disable NAME | user enable NAME | user 2fa-reset NAME ${DB}`;

/** The forms of `quire user` and `quire token`, for a mistyped one's closest. */
const USER_COMMANDS = ['add', 'list', 'role', 'passwd', 'disable', 'enable', '2fa-reset'];
const TOKEN_COMMANDS = ['add', 'list', 'revoke'];

/** How to call `quire token`. */
export const TOKEN_USAGE = `quire token add NAME --role ROLE [--types a,b] [--expires DAYS] | token list | token revoke NAME ${DB}`;

/** Where the commands read a password and write: results to `out`, prompts and problems to `err`. */
export interface AccountStreams {
  input: PromptInput;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  /** The variables the command reads its defaults from (QUIRE_DB...; `main` passes the process's); none when left out. */
  env?: NodeJS.ProcessEnv;
}

const STDIO: AccountStreams = { input: process.stdin, out: process.stdout, err: process.stderr };

/** A usage mistake (exit code 2). */
class UsageMistake extends Error {}

/** The options `quire user` and `quire token` take (`--expires` is a token's). */
export const ACCOUNT_OPTIONS = {
  db: { type: 'string' },
  database: { type: 'string' },
  role: { type: 'string' },
  types: { type: 'string' },
  expires: { type: 'string' },
  sso: { type: 'boolean' },
} as const;

function parse(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: true, options: ACCOUNT_OPTIONS });
}

type Parsed = ReturnType<typeof parse>;

/**
 * `quire user ...` and `quire token ...`: accounts and API tokens in the site's database, while a
 * server runs or not (SQLite waits for the server's writes; PostgreSQL has many connections).
 * Passwords are asked for on the terminal, never taken from the command line. Each prints one
 * line (a list, one per account or token); returns the exit code (0 done, 1 refused, 2 usage).
 */
export async function accountCommand(
  kind: 'user' | 'token',
  args: string[],
  streams: AccountStreams = STDIO,
): Promise<number> {
  const usage = kind === 'user' ? USER_USAGE : TOKEN_USAGE;
  const say = (stream: NodeJS.WritableStream, line: string) => stream.write(`${line}\n`);
  let parsed: Parsed;
  let choice: DatabaseChoice;
  try {
    parsed = parse(args);
    choice = chooseDatabase(parsed.values, streams.env ?? {});
  } catch (error) {
    say(streams.err, `quire ${kind}: ${redactDatabaseUrls((error as Error).message)}. Usage: ${usage}`);
    return 2;
  }
  let database: QuireDb | null = null;
  try {
    // Checked before the database is opened: a mistake needs no connection.
    const run = kind === 'user' ? userAction(parsed, streams) : tokenAction(parsed);
    const site = await databaseSite(choice);
    site.requireQuireDatabase();
    database = await site.open();
    const repository = new AccountRepository(database.db, database.engine);
    for (const line of await run(repository, database)) say(streams.out, line);
    return 0;
  } catch (error) {
    if (error instanceof UsageMistake) {
      say(streams.err, `quire ${kind}: ${error.message} (quire help ${kind} shows each form)`);
      return 2;
    }
    const known =
      error instanceof AppError ||
      error instanceof BackupError ||
      error instanceof DatabaseUnavailableError ||
      error instanceof PromptCancelled;
    const message = known ? (error as Error).message : redactDatabaseUrls((error as Error).message).split('\n')[0];
    say(streams.err, `quire ${kind}: ${message}`);
    return 1;
  } finally {
    await database?.close();
  }
}

type Action = (repository: AccountRepository, database: QuireDb) => Promise<string[]>;

/** The positional arguments after the subcommand, exactly `count` of them. */
function operands(parsed: Parsed, count: number, names: string): string[] {
  const rest = parsed.positionals.slice(1);
  if (rest.length !== count) throw new UsageMistake(`${parsed.positionals[0]} takes ${names}`);
  return rest;
}

/** Flags a subcommand does not take are a mistake, not something to ignore. */
function onlyFlags(parsed: Parsed, allowed: readonly string[]): void {
  const extra = Object.keys(parsed.values).find((name) => !['db', 'database', ...allowed].includes(name));
  if (extra) throw new UsageMistake(`${parsed.positionals[0]} does not take --${extra}`);
}

/** Input checks as usage mistakes (one line and the usage), not as refusals. */
function checked<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw new UsageMistake((error as Error).message);
  }
}

function userAction(parsed: Parsed, streams: AccountStreams): Action {
  const sub = parsed.positionals[0];
  const service = (repository: AccountRepository) => new AccountService({ repository });
  const password = (name: string) => readNewPassword(streams.input, streams.err, name);
  if (sub === 'add') {
    onlyFlags(parsed, ['role', 'types', 'sso']);
    const [name] = operands(parsed, 1, 'NAME');
    checked(() => checkName(name));
    const role = checked(() => checkRole(parsed.values.role));
    return async (repository, database) => {
      const account = await service(repository).add({
        name,
        role,
        // Invited for single sign-on: no password is asked for, and none will sign in.
        password: parsed.values.sso ? null : await password(name),
        content_types: parsed.values.types,
        sso: parsed.values.sso,
      });
      await recordAccountCreated(cliAudit(database), CLI_ACTOR, account);
      const how = parsed.values.sso ? ', signing in only through the identity provider' : '';
      const added = `Added ${account.name} (${describe(account.role, account.content_types)})${how}.`;
      return [account.notice === undefined ? added : `${added} ${account.notice}.`];
    };
  }
  if (sub === 'list') {
    onlyFlags(parsed, []);
    operands(parsed, 0, 'no arguments');
    return async (repository) => {
      const accounts = await service(repository).list();
      return accounts.length === 0
        ? ['No accounts: a server on this machine needs no sign-in.']
        : accounts.map(accountLine);
    };
  }
  if (sub === 'role') {
    onlyFlags(parsed, ['types']);
    const [name, roleName] = operands(parsed, 2, 'NAME ROLE');
    const role = checked(() => checkRole(roleName));
    return async (repository, database) => {
      const changes = parsed.values.types === undefined ? { role } : { role, content_types: parsed.values.types };
      const before = await service(repository).get(name);
      const account = await service(repository).change(name, changes);
      await recordAccountChanged(cliAudit(database), CLI_ACTOR, before, changes, account);
      return [`${account.name} is now ${describe(account.role, account.content_types)}.`];
    };
  }
  if (sub === 'passwd') {
    onlyFlags(parsed, []);
    const [name] = operands(parsed, 1, 'NAME');
    return async (repository, database) => {
      await service(repository).require(name);
      await service(repository).change(name, { password: await password(name) });
      await cliAudit(database).record({ ...CLI_ACTOR, action: 'account.password_changed', target: name });
      return [`Changed the password of ${name}; their sessions were ended.`];
    };
  }
  if (sub === 'disable' || sub === 'enable') {
    onlyFlags(parsed, []);
    const [name] = operands(parsed, 1, 'NAME');
    return async (repository, database) => {
      const changes = { disabled: sub === 'disable' };
      const before = await service(repository).get(name);
      const account = await service(repository).change(name, changes);
      await recordAccountChanged(cliAudit(database), CLI_ACTOR, before, changes, account);
      return [sub === 'disable' ? `Disabled ${name}; their sessions were ended.` : `Enabled ${name}.`];
    };
  }
  if (sub === '2fa-reset') {
    onlyFlags(parsed, []);
    const [name] = operands(parsed, 1, 'NAME');
    return async (_repository, database) => {
      const wasOn = await new TwoFactorService({ repository: new TwoFactorRepository(database.db) }).reset(name);
      await cliAudit(database).record({
        ...CLI_ACTOR,
        action: 'two_factor.reset',
        target: name,
        detail: { was_on: wasOn },
      });
      return [
        wasOn
          ? `Turned off two-factor sign-in for ${name}: they sign in with their password and may enrol again.`
          : `${name} had no two-factor sign-in; nothing changed.`,
      ];
    };
  }
  throw new UsageMistake(
    sub ? `unknown user command ${JSON.stringify(sub)}${didYouMean(sub, USER_COMMANDS)}` : 'name a user command',
  );
}

function tokenAction(parsed: Parsed): Action {
  const sub = parsed.positionals[0];
  if (sub === 'add') {
    onlyFlags(parsed, ['role', 'types', 'expires']);
    const [name] = operands(parsed, 1, 'NAME');
    checked(() => checkName(name));
    const role = checked(() => checkRole(parsed.values.role));
    return async (repository, database) => {
      const made = await new TokenService({ repository }).add({
        name,
        role,
        content_types: parsed.values.types,
        expires_days: parsed.values.expires,
      });
      await recordTokenCreated(cliAudit(database), CLI_ACTOR, made);
      // The token alone on its line, so a script can take it; it is never shown again.
      return [made.token];
    };
  }
  if (sub === 'list') {
    onlyFlags(parsed, []);
    operands(parsed, 0, 'no arguments');
    return async (repository) => {
      const tokens = await new TokenService({ repository }).list();
      return tokens.length === 0 ? ['No API tokens.'] : tokens.map(tokenLine);
    };
  }
  if (sub === 'revoke') {
    onlyFlags(parsed, []);
    const [name] = operands(parsed, 1, 'NAME');
    return async (repository, database) => {
      await new TokenService({ repository }).revoke(name);
      await cliAudit(database).record({ ...CLI_ACTOR, action: 'token.revoked', target: name });
      return [`Revoked the token ${name}; requests with it are refused from now on.`];
    };
  }
  throw new UsageMistake(
    sub ? `unknown token command ${JSON.stringify(sub)}${didYouMean(sub, TOKEN_COMMANDS)}` : 'name a token command',
  );
}

function describe(role: string, types: string[] | null): string {
  return types === null ? role : `${role} of ${types.join(', ')}`;
}

function accountLine(account: AccountSummary): string {
  const state = account.disabled ? ', disabled' : '';
  return `${account.name}: ${describe(account.role, account.content_types)}${state}`;
}

function tokenLine(token: TokenSummary): string {
  const state = token.revoked_at
    ? `revoked ${token.revoked_at}`
    : token.expires_at
      ? `expires ${token.expires_at}`
      : 'never expires';
  const used = token.last_used_at ? `last used ${token.last_used_at}` : 'never used';
  return `${token.name}: ${describe(token.role, token.content_types)}, ${state}, ${used}`;
}
