import { describe, expect, it } from 'vitest';
import { describeTarget, PostgresUrlError, parsePostgresUrl, redactPostgresUrl } from './postgres-url.js';

/** The message `parsePostgresUrl` throws for `text` (failing the test when it does not throw). */
function refusal(text: string): string {
  try {
    parsePostgresUrl(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PostgresUrlError);
    return (error as Error).message;
  }
  throw new Error(`expected ${redactPostgresUrl(text)} to be refused`);
}

describe('parsePostgresUrl', () => {
  it('reads host, port, database, user and password', () => {
    expect(parsePostgresUrl('postgres://quire:secret@db.example:6543/site')).toEqual({
      host: 'db.example',
      port: 6543,
      database: 'site',
      user: 'quire',
      password: 'secret',
      sslMode: 'disable',
    });
  });

  it('takes postgresql:// too, port 5432 by default, and no credentials', () => {
    expect(parsePostgresUrl('postgresql://db.example/site')).toEqual({
      host: 'db.example',
      port: 5432,
      database: 'site',
      sslMode: 'disable',
    });
  });

  it('decodes percent-encoded passwords with every special character', () => {
    const password = 'p@ss:w/o#r?d%&= ü"\'';
    const target = parsePostgresUrl(`postgres://quire:${encodeURIComponent(password)}@db.example/site`);
    expect(target.password).toBe(password);
    expect(target.host).toBe('db.example');
    expect(target.database).toBe('site');
  });

  it('reads an unencoded @ in the password as URLs do: the last @ before the host ends the credentials', () => {
    expect(parsePostgresUrl('postgres://quire:hunter@2@db.example/site')).toMatchObject({
      user: 'quire',
      password: 'hunter@2',
      host: 'db.example',
    });
  });

  it('keeps a colon in the password (only the first one separates user from password)', () => {
    expect(parsePostgresUrl('postgres://quire:a:b:c@db.example/site').password).toBe('a:b:c');
  });

  it('reads sslmode, application_name and connect_timeout, and user/password as parameters', () => {
    expect(
      parsePostgresUrl(
        'postgres://db.example/site?sslmode=verify-full&application_name=build%20server&connect_timeout=3&user=quire&password=s%26cret',
      ),
    ).toEqual({
      host: 'db.example',
      port: 5432,
      database: 'site',
      user: 'quire',
      password: 's&cret',
      sslMode: 'verify-full',
      applicationName: 'build server',
      connectTimeoutSeconds: 3,
    });
  });

  it('reads IPv6 hosts, Unix socket folders and percent-encoded database names', () => {
    expect(parsePostgresUrl('postgres://[::1]:5433/site')).toMatchObject({ host: '::1', port: 5433 });
    expect(parsePostgresUrl('postgres://%2Fvar%2Frun%2Fpostgresql/site').host).toBe('/var/run/postgresql');
    expect(parsePostgresUrl('postgres://db.example/my%20site').database).toBe('my site');
  });

  it('takes the host and port as parameters, as libpq does: a Unix socket folder in `host=`', () => {
    expect(parsePostgresUrl('postgresql:///site?host=/var/run/postgresql')).toMatchObject({
      host: '/var/run/postgresql',
      port: 5432,
      database: 'site',
    });
    expect(parsePostgresUrl('postgres://quire@/site?host=%2Ftmp&port=5433')).toMatchObject({
      host: '/tmp',
      port: 5433,
      user: 'quire',
    });
    expect(parsePostgresUrl('postgres:///site?host=db.example').host).toBe('db.example');
  });

  it.each([
    ['mysql://db.example/site', 'starts with postgres:// or postgresql://'],
    ['db.example/site', 'starts with postgres:// or postgresql://'],
    ['postgres:///site', 'names no host'],
    ['postgres:///site', '?host=/var/run/postgresql for a Unix socket folder'],
    ['postgres://db.example/site?host=/tmp', 'gives its host twice'],
    ['postgres://db.example:5433/site?port=5434', 'gives its port twice'],
    ['postgres:///site?host=/tmp&port=54x', 'port outside 1 to 65535'],
    ['postgres:///site?host=/tmp&port=0', 'port outside 1 to 65535'],
    ['postgres://db.example', 'names no database'],
    ['postgres://db.example/', 'names no database'],
    ['postgres://db.example:0/site', 'port outside 1 to 65535'],
    ['postgres://db.example:70000/site', 'not a valid URL'],
    ['postgres://a,b/site', 'several hosts'],
    ['postgres://db.example/site/extra', 'more than a database name'],
    ['postgres://db.example/site?sslmode=prefer', 'may fall back to an unencrypted connection'],
    ['postgres://db.example/site?sslmode=on', 'sslmode must be one of'],
    ['postgres://db.example/site?connect_timeout=0', 'connect_timeout must be a whole number'],
    ['postgres://db.example/site?connect_timeout=1.5', 'connect_timeout must be a whole number'],
    ['postgres://db.example/site?sslrootcert=ca.pem', '"sslrootcert" that Quire does not know'],
    ['postgres://db.example/site?sslmode=require&sslmode=disable', '"sslmode" twice'],
  ])('refuses %s', (text, expected) => {
    expect(refusal(text)).toContain(expected);
  });

  it.each([
    // An unencoded @, /, # or ? in a password: each moves part of it somewhere a message could show.
    ['/ in the password', 'postgres://quire:12/hunter2@db.example/site', 'an @ after its host'],
    ['# in the password', 'postgres://quire:hun#ter2@db.example/site', 'an @ after its host'],
    ['? in the password', 'postgres://quire:12?hunter2@db.example/site', 'an @ after its host'],
    ['a broken % in the password', 'postgres://quire:hunter2%zz@db.example/site', 'not percent-encoding'],
    ['a password and a bad port', 'postgres://quire:hunter2@db.example:99999/site', 'not a valid URL'],
    ['a password and an odd parameter', 'postgres://quire:hunter2@db.example/site?Hunter2=x', 'a parameter that'],
  ])('refuses a URL with %s without showing the password', (_, text, expected) => {
    const message = refusal(text);
    expect(message).toContain(expected);
    expect(message).not.toMatch(/hunter|quire:/i);
    expect(message).not.toContain('\n');
  });
});

describe('describeTarget', () => {
  it('names host, port and database, never the user or password', () => {
    const target = parsePostgresUrl('postgres://quire:s%40cret@db.example:5432/site?sslmode=require');
    expect(describeTarget(target)).toBe('db.example:5432/site');
    expect(describeTarget(parsePostgresUrl('postgres://[::1]/site'))).toBe('[::1]:5432/site');
    expect(describeTarget(parsePostgresUrl('postgres://%2Ftmp/site'))).toBe('/tmp (socket, port 5432)/site');
  });
});

describe('redactPostgresUrl', () => {
  it.each([
    ['postgres://quire:hunter2@db.example:5432/site', 'postgres://***@db.example:5432/site'],
    ['postgresql://quire@db.example/site', 'postgresql://***@db.example/site'],
    ['postgres://quire:hun@ter2@db.example/site', 'postgres://***@db.example/site'],
    ['postgres://quire:hun/t#er?2@db.example/site', 'postgres://***@db.example/site'],
    ['postgres://quire:hun ter2@db.example/site', 'postgres://***@db.example/site'],
    ['postgres://quire:p%40ss@db.example/site?sslmode=require', 'postgres://***@db.example/site?sslmode=require'],
    [
      'postgres://db.example/site?sslmode=require&user=quire&password=hunter2&application_name=x',
      'postgres://db.example/site?sslmode=require&user=***&password=***&application_name=x',
    ],
    ['postgres://db.example/site', 'postgres://db.example/site'],
    [
      'failed to open POSTGRES://quire:hunter2@db.example/site: refused',
      'failed to open POSTGRES://***@db.example/site: refused',
    ],
  ])('redacts %s', (text, expected) => {
    expect(redactPostgresUrl(text)).toBe(expected);
  });
});
