import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresForTests, runAdmin, skipNote, useTestDatabase } from '../../test-support/postgres.js';
import {
  checkServerVersion,
  connectPostgres,
  explainPostgresError,
  isDatabaseUnavailable,
  openPostgresPool,
  PostgresConnectionError,
  type PostgresFailure,
} from './postgres-connection.js';
import { describeHost, type PostgresTarget, parsePostgresUrl } from './postgres-url.js';

const postgres = await postgresForTests();

/** The test server's Unix socket folder where its socket file is there, else why a test cannot use one. */
async function socketFolder(): Promise<{ folder: string | null; why: string }> {
  if (!postgres.available) return { folder: null, why: postgres.skipReason };
  const target = parsePostgresUrl(postgres.url);
  const { rows } = await runAdmin(target, 'show unix_socket_directories');
  const folder = String(rows[0].unix_socket_directories).split(',')[0].trim();
  if (folder && existsSync(join(folder, `.s.PGSQL.${target.port}`))) return { folder, why: '' };
  return { folder: null, why: ` (skipped: the server has no socket file in ${JSON.stringify(folder)})` };
}
const socket = await socketFolder();
const credentials = /quire_secret_user|hunter2/;

/**
 * A wrong password, and none, tried against a role made for it: the refusals, or why none can be had
 * (a server that trusts every connection from here checks no password, and no test should pretend
 * it does).
 */
async function passwordAttempts(): Promise<{
  wrong: PostgresConnectionError | null;
  missing: PostgresConnectionError | null;
  skipReason: string | null;
}> {
  if (!postgres.available) return { wrong: null, missing: null, skipReason: postgres.skipReason };
  const role = `quire_test_role_${randomBytes(6).toString('hex')}`;
  const attempt = async (password: string) => {
    const url = new URL(postgres.url);
    url.username = role;
    url.password = password;
    try {
      const { pool } = await connectPostgres(parsePostgresUrl(url.toString()), { max: 1 });
      await pool.end();
      return null;
    } catch (error) {
      return error as PostgresConnectionError;
    }
  };
  await runAdmin(postgres.target, `create role ${role} login password 'right-password'`);
  try {
    const wrong = await attempt('hunter2');
    const skipReason = wrong
      ? null
      : `${postgres.target.host} trusts this connection (pg_hba.conf "trust"), so it checks no password`;
    return { wrong, missing: await attempt(''), skipReason };
  } finally {
    await runAdmin(postgres.target, `drop role ${role}`);
  }
}
const passwords = await passwordAttempts();

/** `connectPostgres`' refusal for `url`: its failure and its one line. */
async function refusal(url: string, connectTimeoutMs?: number): Promise<{ failure: PostgresFailure; message: string }> {
  try {
    const { pool } = await connectPostgres(parsePostgresUrl(url), { connectTimeoutMs });
    await pool.end();
  } catch (error) {
    expect(error).toBeInstanceOf(PostgresConnectionError);
    const { failure, message } = error as PostgresConnectionError;
    expect(message).not.toContain('\n');
    expect(message).not.toMatch(credentials);
    return { failure, message };
  }
  throw new Error('expected the connection to be refused');
}

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A real TCP server on 127.0.0.1 that does `onSocket` with each connection; its port. */
async function tcpServer(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    sockets.push(socket);
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const port = await tcpServer(() => {});
  await new Promise((resolve) => servers.pop()!.close(resolve));
  return port;
}

describe('connecting to servers that are not there (real sockets, no PostgreSQL needed)', () => {
  it('names host, port and "connection refused" for a closed port, without the credentials', async () => {
    const port = await closedPort();
    expect(await refusal(`postgres://quire_secret_user:hunter2@127.0.0.1:${port}/site`)).toEqual({
      failure: 'connection_refused',
      message: `Cannot reach PostgreSQL at 127.0.0.1:${port} (connection refused)`,
    });
  });

  it('says "unknown host" for a host no resolver knows', async () => {
    expect(await refusal('postgres://quire_secret_user:hunter2@quire-no-such-host.invalid:5432/site')).toEqual({
      failure: 'unknown_host',
      message: 'Cannot reach PostgreSQL at quire-no-such-host.invalid:5432 (unknown host)',
    });
  });

  it('gives up after connect_timeout on a server that accepts and never answers', async () => {
    const port = await tcpServer(() => {}); // holds the socket open, says nothing
    const started = Date.now();
    expect(await refusal(`postgres://quire_secret_user:hunter2@127.0.0.1:${port}/site?connect_timeout=1`)).toEqual({
      failure: 'timeout',
      message: `Cannot reach PostgreSQL at 127.0.0.1:${port} (timeout after 1s)`,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says the connection was closed by something that is not PostgreSQL', async () => {
    const port = await tcpServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    expect(await refusal(`postgres://127.0.0.1:${port}/site`)).toEqual({
      failure: 'connection_closed',
      message: `Cannot reach PostgreSQL at 127.0.0.1:${port} (the server closed the connection; is it PostgreSQL?)`,
    });
  });

  it('counts the refusal as the database being unavailable', async () => {
    const port = await closedPort();
    const pool = openPostgresPool(parsePostgresUrl(`postgres://127.0.0.1:${port}/site`));
    const error = await rejection(pool.query('select 1'));
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(explainPostgresError(error, parsePostgresUrl(`postgres://127.0.0.1:${port}/x`)))).toBe(
      true,
    );
  });
});

describe('checkServerVersion', () => {
  const target = parsePostgresUrl('postgres://quire:hunter2@db.example/site');

  it('accepts PostgreSQL 15 and newer', () => {
    expect(() => checkServerVersion(150_000, '15.0', target)).not.toThrow();
    expect(() => checkServerVersion(170_002, '17.2 (Debian 17.2-1)', target)).not.toThrow();
  });

  it('refuses older servers in one line naming the version', () => {
    expect(() => checkServerVersion(140_011, '14.11 (Debian 14.11-1.pgdg120+2)', target)).toThrow(
      new PostgresConnectionError(
        'version',
        'PostgreSQL at db.example:5432 is version 14.11; Quire needs PostgreSQL 15 or newer',
      ),
    );
    expect(() => checkServerVersion(Number.NaN, '', target)).toThrow('is version unknown');
  });
});

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

  it.each([
    ['08006 connection_failure', withCode('08006')],
    ['08P01 protocol_violation (class 08)', withCode('08P01')],
    ['57P01 admin_shutdown', withCode('57P01')],
    ['57P02 crash_shutdown', withCode('57P02')],
    ['57P03 cannot_connect_now', withCode('57P03')],
    ['ECONNRESET', withCode('ECONNRESET')],
    ['ECONNREFUSED inside an AggregateError (every address refused)', new AggregateError([withCode('ECONNREFUSED')])],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['a wrapped cause', new Error('query failed', { cause: withCode('57P01') })],
  ])('is true for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['23505 unique_violation', withCode('23505')],
    ['42601 syntax_error', withCode('42601')],
    ['3D000 a database that does not exist (a configuration mistake, not an outage)', withCode('3D000')],
    ['28P01 a wrong password', withCode('28P01')],
    ['an ordinary error', new Error('boom')],
    ['a non-error', 'Connection terminated'],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe.skipIf(!postgres.available)(`connecting to the test PostgreSQL server${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  const admin = (): PostgresTarget => parsePostgresUrl(postgres.url);
  const withDatabase = (name: string) => {
    const url = new URL(postgres.url);
    url.pathname = `/${name}`;
    return url.toString();
  };

  it('connects, and the server is PostgreSQL 15 or newer', async () => {
    const { pool, serverVersion } = await connectPostgres(database().target);
    try {
      expect(Number.parseInt(serverVersion, 10)).toBeGreaterThanOrEqual(15);
      const { rows } = await pool.query('select current_database() as name');
      expect(rows).toEqual([{ name: database().name }]);
    } finally {
      await pool.end();
    }
  });

  it.skipIf(socket.folder === null)(
    `connects through the server's Unix socket folder given as host=, libpq's way${socket.why}`,
    async () => {
      const user = parsePostgresUrl(postgres.url).user ?? 'postgres';
      const url = `postgres://${encodeURIComponent(user)}@/${database().name}?host=${encodeURIComponent(socket.folder as string)}`;
      const target = parsePostgresUrl(url);
      expect(target.host).toBe(socket.folder);
      const { pool } = await connectPostgres(target);
      try {
        const { rows } = await pool.query(
          'select current_database() as name, inet_server_addr() is null as unix from pg_stat_activity where pid = pg_backend_pid()',
        );
        expect(rows).toEqual([{ name: database().name, unix: true }]);
      } finally {
        await pool.end();
      }
    },
  );

  it('names the database that does not exist', async () => {
    const { host, port } = admin();
    expect(await refusal(withDatabase('quire_no_such_database'))).toEqual({
      failure: 'database_missing',
      message: `Cannot reach PostgreSQL at ${host}:${port} (database "quire_no_such_database" does not exist)`,
    });
  });

  it('says authentication failed for a role that does not exist, without naming it', async () => {
    const url = new URL(withDatabase(database().name));
    url.username = 'quire_secret_user';
    url.password = 'hunter2';
    const { failure, message } = await refusal(url.toString());
    expect(failure).toBe('authentication_failed');
    // A server that checks passwords says only "password authentication failed" for a missing role.
    expect(message).toMatch(
      /^Cannot reach PostgreSQL at [^ ]+ \(authentication failed(: no such role, or it may not connect from here)?\)$/,
    );
  });

  it.skipIf(passwords.skipReason !== null)(
    `says authentication failed for a wrong or missing password, without the user or password${passwords.skipReason ? ` (skipped: ${passwords.skipReason})` : ''}`,
    () => {
      const where = describeHost(admin());
      expect(passwords.wrong).toBeInstanceOf(PostgresConnectionError);
      expect(passwords.wrong).toMatchObject({
        failure: 'authentication_failed',
        message: `Cannot reach PostgreSQL at ${where} (authentication failed)`,
      });
      expect(passwords.missing).toMatchObject({
        failure: 'authentication_failed',
        message: `Cannot reach PostgreSQL at ${where} (authentication failed: the server asks for a password and the URL has none)`,
      });
    },
  );

  it('counts a connection the server terminates as unavailable, and the pool carries on', async () => {
    const idleErrors: string[] = [];
    const { pool } = await connectPostgres(database().target, { onIdleError: (line) => idleErrors.push(line) });
    try {
      // A query whose own connection is ended by the server (as a restart or an admin would).
      const error = await rejection(pool.query('select pg_terminate_backend(pg_backend_pid())'));
      expect((error as { code?: string }).code).toBe('57P01');
      expect(isDatabaseUnavailable(error)).toBe(true);

      // An idle connection ended under the pool: reported, not a crash, and the next query reconnects.
      const { rows } = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
      await runAdmin(admin(), `select pg_terminate_backend(${Number(rows[0].pid)})`);
      await expect.poll(() => idleErrors.length, { timeout: 5_000 }).toBeGreaterThan(0);
      expect(idleErrors[0]).toMatch(/^Cannot reach PostgreSQL at /);
      expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('survives a connection that ends while a request holds it (as a transaction does), and reconnects', async () => {
    const { pool } = await connectPostgres(database().target);
    try {
      // Kysely checks a client out for a whole transaction. node-postgres emits 'error' on a client
      // whose connection ends even while the pool has lent it out, where the pool listens no more:
      // without a listener of ours that event ends the process.
      const client = await pool.connect();
      try {
        await client.query('begin');
        const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
        const ended = new Promise((resolve) => client.once('end', resolve));
        await runAdmin(admin(), `select pg_terminate_backend(${Number(rows[0].pid)})`);
        await ended;
        const error = await rejection(client.query('commit'));
        expect(isDatabaseUnavailable(error)).toBe(true);
      } finally {
        client.release();
      }
      expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('does not count an error in a statement as the database being unavailable', async () => {
    const { pool } = await connectPostgres(database().target);
    try {
      const error = await rejection(pool.query('select * from no_such_table'));
      expect((error as { code?: string }).code).toBe('42P01');
      expect(isDatabaseUnavailable(error)).toBe(false);
    } finally {
      await pool.end();
    }
  });
});
