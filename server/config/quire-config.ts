import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SESSION_IDLE_MS } from '../accounts/account-service.js';
import { type SignInChoices, signInChoices } from '../accounts/single-sign-on-config.js';
import { parseTwoFactorRequirement, type TwoFactorRequirement } from '../accounts/two-factor-service.js';
import { DEFAULT_AUDIT_DAYS } from '../audit/audit-service.js';
import { DEFAULT_CHANGES_DAYS } from '../changes/change-feed-service.js';
import { DEFAULT_EVENT_STREAM_LIMITS, type EventStreamLimits } from '../changes/event-streams.js';
import type { PostgresTarget } from '../db/database.js';
import { DEFAULT_BODY_LIMIT } from '../http/body-parsing.js';
import { parseTrustedProxies } from '../http/client-address.js';
import { normalizeHostname } from '../http/host-guard.js';
import { normalizeOrigin } from '../http/origin-guard.js';
import { checkToken } from '../http/token-auth.js';
import {
  DEFAULT_IMAGE_CACHE_MB,
  DEFAULT_IMAGE_OPTIONS,
  type ImageOptions,
  parseImageSizes,
} from '../media/image-options.js';
import { DEFAULT_UPLOAD_LIMIT } from '../media/media-store.js';
import { DEFAULT_TRASH_DAYS } from '../revisions/revision-record.js';
import { defaultBackupDir, defaultSearchIndexDir } from './app-paths.js';
import { chooseDatabase, type DatabaseFlags } from './database-choice.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './listen-defaults.js';

/** Said after a mistake in `quire serve`'s options. */
const SERVE_USAGE = 'Usage: quire serve [options] (quire help serve lists them)';

/** A command-line mistake: printed as one line, exit code 2. */
export class UsageError extends Error {}

/**
 * Everything `quire serve` is told, read once from its flags and the environment and checked
 * (`readQuireConfig`), then passed down: nothing below reads the environment. Sign-in
 * (SignInChoices): single sign-on through an OpenID Connect provider (`--oidc-*`), password
 * sign-in (off with `--no-password-sign-in`) and `--public-url`.
 */
export interface QuireConfig extends SignInChoices {
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
  /** The image pipeline: `--image-sizes` (the sizes variants may have), `--keep-image-metadata` and `--image-cache-mb`. */
  images: ImageOptions;
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
  /**
   * Where scheduled backups go where they are not beside the database (a PostgreSQL site's):
   * `--backup-dir`, else `backups/` in the app-data folder.
   */
  backupDir: string;
  /** Revisions kept per row (`--keep-revisions`, QUIRE_KEEP_REVISIONS); null keeps all. */
  keepRevisions: number | null;
  /** Days a deleted row stays restorable (`--trash-days`, QUIRE_TRASH_DAYS). */
  trashDays: number;
  /** Days an audit event is kept (`--audit-days`, QUIRE_AUDIT_DAYS). */
  auditDays: number;
  /** Days a change stays in the change feed (`--changes-days`, QUIRE_CHANGES_DAYS). */
  changesDays: number;
  /** Open event streams at most: in all (`--event-streams`) and per credential (`--event-streams-per-credential`). */
  eventStreams: EventStreamLimits;
  /** How long a sign-in session lasts without use (QUIRE_SESSION_HOURS, a positive number of hours; else 12 hours). */
  sessionIdleMs: number;
  /** Where a PostgreSQL site's search indexes are saved at a clean stop (see `defaultSearchIndexDir`). */
  searchIndexDir: string;
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
  'image-sizes': { type: 'string' },
  'image-cache-mb': { type: 'string' },
  'keep-image-metadata': { type: 'boolean' },
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
  'changes-days': { type: 'string' },
  'event-streams': { type: 'string' },
  'event-streams-per-credential': { type: 'string' },
} as const;

/**
 * `quire serve`'s configuration from its arguments and `env` (a flag overrides its variable);
 * throws UsageError with a one-line explanation.
 */
export function readQuireConfig(args: string[], env: NodeJS.ProcessEnv): QuireConfig {
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
  let imageSizes: number[] | null = null;
  try {
    if (values['image-sizes'] !== undefined) imageSizes = parseImageSizes(values['image-sizes']);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const imageCacheMb = wholeNumberFlag('--image-cache-mb', values['image-cache-mb']) ?? DEFAULT_IMAGE_CACHE_MB;
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
  const changesDays = wholeNumberFlag('--changes-days', values['changes-days'] ?? fromEnv('QUIRE_CHANGES_DAYS'));
  const streams = wholeNumberFlag('--event-streams', values['event-streams'] ?? fromEnv('QUIRE_EVENT_STREAMS'));
  const streamsPerCredential = wholeNumberFlag(
    '--event-streams-per-credential',
    values['event-streams-per-credential'] ?? fromEnv('QUIRE_EVENT_STREAMS_PER_CREDENTIAL'),
  );
  return {
    ...database,
    keepRevisions,
    trashDays: trashDays ?? DEFAULT_TRASH_DAYS,
    requireTwoFactor,
    auditDays: auditDays ?? DEFAULT_AUDIT_DAYS,
    changesDays: changesDays ?? DEFAULT_CHANGES_DAYS,
    eventStreams: {
      total: streams ?? DEFAULT_EVENT_STREAM_LIMITS.total,
      perCredential: streamsPerCredential ?? DEFAULT_EVENT_STREAM_LIMITS.perCredential,
    },
    port,
    host: values.host ?? fromEnv('QUIRE_HOST') ?? DEFAULT_HOST,
    editorName: values.editor ?? fromEnv('QUIRE_EDITOR') ?? osUserName(),
    demo: values.demo ?? false,
    bodyLimit,
    uploadLimit,
    images: {
      ...DEFAULT_IMAGE_OPTIONS,
      sizes: imageSizes,
      keepMetadata: values['keep-image-metadata'] ?? false,
      cacheMaxBytes: imageCacheMb * 2 ** 20,
    },
    backups: !values['no-backups'],
    backupDir: resolve(values['backup-dir'] ?? defaultBackupDir(process.platform, env)),
    ...parseSecurityFlags(values, fromEnv('QUIRE_TOKEN'), fromEnv('QUIRE_TRUST_PROXY')),
    ...parseSignInFlags(values, fromEnv),
    sessionIdleMs: sessionIdleFromEnv(env),
    searchIndexDir: defaultSearchIndexDir(process.platform, env),
  };
}

/** The session idle time `QUIRE_SESSION_HOURS` sets in `env` (a positive number of hours), else the default. */
export function sessionIdleFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.QUIRE_SESSION_HOURS;
  const hours = Number(raw);
  return raw && Number.isFinite(hours) && hours > 0 ? hours * 60 * 60_000 : DEFAULT_SESSION_IDLE_MS;
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
function parseDatabaseFlags(values: DatabaseFlags, env: NodeJS.ProcessEnv): Pick<QuireConfig, 'dbFile' | 'postgres'> {
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
): Pick<QuireConfig, 'allowedHosts' | 'corsOrigins' | 'token' | 'trustProxy'> {
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
