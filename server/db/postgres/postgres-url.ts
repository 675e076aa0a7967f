/**
 * Where a PostgreSQL database is, read from a `postgres://` URL (`--database`, `QUIRE_DATABASE_URL`).
 * The URL carries the user and password, so nothing here ever puts them in a message: errors say
 * what is wrong without echoing the URL, and `describeTarget` / `redactPostgresUrl` are the only
 * ways a target reaches a log.
 */

/** How the connection is encrypted, as libpq's `sslmode` names it (the subset node-postgres can honour). */
export type SslMode = 'disable' | 'require' | 'verify-ca' | 'verify-full';

/** A checked PostgreSQL URL. `user` and `password` are for the driver only, never for messages. */
export interface PostgresTarget {
  /** A host name, an IP address (IPv6 without brackets), or a Unix socket folder (starting with `/`). */
  host: string;
  port: number;
  database: string;
  user?: string;
  password?: string;
  sslMode: SslMode;
  /** The `application_name` the server shows in `pg_stat_activity`. */
  applicationName?: string;
  /** How long a connection attempt may take (libpq's `connect_timeout`, in seconds). */
  connectTimeoutSeconds?: number;
}

/** A URL that cannot name a PostgreSQL database; its message never contains the URL's credentials. */
export class PostgresUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresUrlError';
  }
}

const DEFAULT_PORT = 5432;
/** The host parsed in place of none (a reserved name: `.invalid` never resolves). */
const NO_HOST = 'no-host.invalid';
const SSL_MODES: readonly string[] = ['disable', 'require', 'verify-ca', 'verify-full'];
// libpq's `prefer` and `allow` fall back to plain text when TLS fails; node-postgres cannot, and
// quietly promising encryption that may not happen is worse than asking for a choice.
const UNSUPPORTED_SSL_MODES: readonly string[] = ['prefer', 'allow'];
const KNOWN_PARAMETERS = ['host', 'port', 'sslmode', 'application_name', 'connect_timeout', 'user', 'password'];
const ENCODING_HINT = 'percent-encode special characters in the user name and password (@ as %40, / as %2F, # as %23)';

/**
 * Reads and checks a PostgreSQL URL: `postgres[ql]://[user[:password]@]host[:port]/database[?...]`
 * with the query parameters `sslmode`, `application_name`, `connect_timeout` (and `host`, `port`,
 * `user`, `password`, as libpq allows: `postgres:///site?host=/var/run/postgresql` reaches a server
 * on this machine through its Unix socket folder, as does a percent-encoded folder in the host's
 * place). Throws a `PostgresUrlError` naming what is wrong.
 */
export function parsePostgresUrl(text: string): PostgresTarget {
  const trimmed = text.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    throw new PostgresUrlError('A PostgreSQL URL starts with postgres:// or postgresql://');
  }
  // An unencoded @ in a password moves the rest of it into the path, query or fragment, where the
  // URL parser would read it as the database or a parameter, and a message naming those would leak it.
  const afterAuthority = trimmed.slice(scheme.length + 3).replace(/^[^/?#]*/, '');
  if (afterAuthority.includes('@')) {
    throw new PostgresUrlError(`The PostgreSQL URL has an @ after its host: ${ENCODING_HINT}`);
  }
  // libpq takes a user without a host (`postgres://quire@/site?host=/tmp`), the URL parser does
  // not: a stand-in host is parsed and read back as none.
  const start = scheme.length + 3;
  const authority = /^[^/?#]*/.exec(trimmed.slice(start))?.[0] ?? '';
  const hostless = authority.endsWith('@');
  const end = start + authority.length;
  let url: URL;
  try {
    url = new URL(hostless ? `${trimmed.slice(0, end)}${NO_HOST}${trimmed.slice(end)}` : trimmed);
  } catch {
    // Node's own error carries the whole input (and so the password): it is not passed on.
    throw new PostgresUrlError(
      `The PostgreSQL URL is not a valid URL (is the port a number up to 65535?); ${ENCODING_HINT}`,
    );
  }
  if (url.hash) throw new PostgresUrlError(`The PostgreSQL URL has a # fragment; ${ENCODING_HINT}`);

  const parameters = readParameters(url.searchParams);
  const inUrl = hostless ? '' : decodePart(url.hostname, 'host').replace(/^\[(.*)\]$/, '$1');
  const host = onePlace('host', inUrl, parameters.get('host'));
  if (!host) {
    throw new PostgresUrlError(
      'The PostgreSQL URL names no host (postgres://HOST:5432/DATABASE, or postgres:///DATABASE?host=/var/run/postgresql for a Unix socket folder)',
    );
  }
  if (host.includes(',')) throw new PostgresUrlError('The PostgreSQL URL names several hosts; Quire connects to one');
  const portText = onePlace('port', url.port, parameters.get('port'));
  const port = portText === '' ? DEFAULT_PORT : Number(portText);
  if (!/^\d*$/.test(portText) || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new PostgresUrlError('The PostgreSQL URL has a port outside 1 to 65535');
  }
  const path = url.pathname.replace(/^\//, '');
  if (path.includes('/'))
    throw new PostgresUrlError(`The PostgreSQL URL's path has more than a database name; ${ENCODING_HINT}`);
  const database = decodePart(path, 'database name');
  if (!database) throw new PostgresUrlError('The PostgreSQL URL names no database (postgres://HOST:5432/DATABASE)');

  const user = parameters.get('user') ?? (url.username ? decodePart(url.username, 'user name') : undefined);
  const password = parameters.get('password') ?? (url.password ? decodePart(url.password, 'password') : undefined);
  const target: PostgresTarget = { host, port, database, sslMode: readSslMode(parameters.get('sslmode')) };
  if (user) target.user = user;
  if (password !== undefined && password !== '') target.password = password;
  const applicationName = parameters.get('application_name');
  if (applicationName) target.applicationName = applicationName;
  const timeout = parameters.get('connect_timeout');
  if (timeout !== undefined) target.connectTimeoutSeconds = readTimeout(timeout);
  return target;
}

/** Where a target is, for messages and logs: `db.example:5432`, `[::1]:5432`, or a socket folder. */
export function describeHost(target: Pick<PostgresTarget, 'host' | 'port'>): string {
  if (target.host.startsWith('/')) return `${target.host} (socket, port ${target.port})`;
  return target.host.includes(':') ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
}

/** A target for messages and logs, without its credentials: `db.example:5432/site`. */
export function describeTarget(target: PostgresTarget): string {
  return `${describeHost(target)}/${target.database}`;
}

/**
 * Any text that may hold a PostgreSQL URL (one that did not parse, a driver message) with the
 * user name, password and `user=`/`password=` parameters replaced by `***`. Errs towards hiding
 * too much: everything between `://` and the last @ goes, since an unencoded @, / or # in a
 * password makes any stricter reading of the URL wrong.
 */
export function redactPostgresUrl(text: string): string {
  return text
    .replace(/(postgres(?:ql)?:\/\/)[^\r\n]*@/gi, '$1***@')
    .replace(/([?&](?:user|password)=)[^&#\s]*/gi, '$1***');
}

/** The URL's `what` (host or port), from its place in the URL or its parameter: never both. */
function onePlace(what: string, inUrl: string, parameter: string | undefined): string {
  if (parameter === undefined) return inUrl;
  if (inUrl !== '')
    throw new PostgresUrlError(`The PostgreSQL URL gives its ${what} twice: in the URL and as ${what}=`);
  return parameter;
}

function decodePart(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new PostgresUrlError(`The PostgreSQL URL's ${what} has a % that is not percent-encoding (write % as %25)`);
  }
}

function readParameters(search: URLSearchParams): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const [name, value] of search) {
    if (!KNOWN_PARAMETERS.includes(name)) {
      // A name is echoed only when it looks like one, so that a stray piece of a password is not.
      const shown = /^[a-z_]{1,40}$/.test(name) ? `"${name}"` : 'a parameter';
      throw new PostgresUrlError(
        `The PostgreSQL URL has ${shown} that Quire does not know (it knows ${KNOWN_PARAMETERS.join(', ')})`,
      );
    }
    if (parameters.has(name)) throw new PostgresUrlError(`The PostgreSQL URL gives "${name}" twice`);
    parameters.set(name, value);
  }
  return parameters;
}

function readSslMode(value: string | undefined): SslMode {
  if (value === undefined) return 'disable';
  if (SSL_MODES.includes(value)) return value as SslMode;
  if (UNSUPPORTED_SSL_MODES.includes(value)) {
    throw new PostgresUrlError(
      `sslmode=${value} may fall back to an unencrypted connection, which Quire does not do: choose sslmode=disable or sslmode=require (or verify-ca, verify-full)`,
    );
  }
  throw new PostgresUrlError(`sslmode must be one of ${SSL_MODES.join(', ')}`);
}

function readTimeout(value: string): number {
  const seconds = Number(value);
  if (!/^\d+$/.test(value) || seconds < 1 || seconds > 3600) {
    throw new PostgresUrlError('connect_timeout must be a whole number of seconds from 1 to 3600');
  }
  return seconds;
}
