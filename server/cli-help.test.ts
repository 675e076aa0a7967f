import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './config/package-root.js';

const root = packageRoot();

/**
 * `quire ARGS` as the built command runs it (dist/server/cli.js: needs `node scripts/build.mjs`,
 * which npm test runs first): its exit code and both outputs. The built command starts in a
 * fraction of the time cli.ts takes under tsx; cli.test.ts runs the sources under tsx.
 */
function quire(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'dist', 'server', 'cli.js'), ...args],
      { cwd: root, env: { ...process.env, QUIRE_DB: '', QUIRE_DATABASE_URL: '' } },
      (error, out, err) => resolve({ code: error ? Number(error.code) : 0, out, err }),
    );
  });
}

describe('quire help', () => {
  it('quire --help and quire help list the commands one a line, each with what it does', async () => {
    const [dashed, word] = await Promise.all([quire(['--help']), quire(['help'])]);
    expect(dashed).toMatchObject({ code: 0, err: '' });
    expect(word).toEqual(dashed);
    for (const command of ['serve', 'types', 'import', 'export', 'backup', 'restore', 'copy', 'media', 'user', 'token'])
      expect(dashed.out).toMatch(new RegExp(`^  ${command} +[A-Z][^\\n]{10,}$`, 'm'));
    expect(dashed.out).toContain('quire help <command>');
  });

  it('quire help COMMAND and quire COMMAND --help print its every flag, default and examples', async () => {
    const [help, flag] = await Promise.all([quire(['help', 'import']), quire(['import', '--help'])]);
    expect(help).toMatchObject({ code: 0, err: '' });
    expect(flag).toEqual(help);
    expect(help.out).toMatch(/^Usage:\n {2}quire import --type TYPE/m);
    expect(help.out).toMatch(/^ {2}--type TYPE +\S/m);
    expect(help.out).toMatch(/^ {2}--editor NAME +.*\n +default: import$/m);
    expect(help.out).toMatch(/^Examples:\n {2}quire import --type /m);
  });

  it('quire serve --help answers without starting a server', async () => {
    const result = await quire(['serve', '--help']);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toMatch(/^ {2}--port N +.*\n +default: QUIRE_PORT, else 4780$/m);
  });

  it('quire --version prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(await quire(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });
});

describe('a mistyped command or flag', () => {
  it('names the closest command in one line, exit code 2', async () => {
    expect(await quire(['tpyes'])).toEqual({
      code: 2,
      out: '',
      err: 'quire: unknown command "tpyes"; did you mean types? (quire help lists the commands)\n',
    });
  });

  it("names the closest of the command's flags in one line, exit code 2, serve's too", async () => {
    const [types, serve] = await Promise.all([quire(['types', '--outt', 'x.d.ts']), quire(['--prot', '0'])]);
    expect(types).toEqual({
      code: 2,
      out: '',
      err: 'quire types: unknown option --outt; did you mean --out? (quire help types lists its options)\n',
    });
    expect(serve).toEqual({
      code: 2,
      out: '',
      err: 'quire serve: unknown option --prot; did you mean --port? (quire help serve lists its options)\n',
    });
  });

  it("names the closest of user's and token's own commands, in one line, exit code 2", async () => {
    const [user, token] = await Promise.all([quire(['user', 'ad', 'ana']), quire(['token', 'revok', 'ci'])]);
    expect(user).toEqual({
      code: 2,
      out: '',
      err: 'quire user: unknown user command "ad"; did you mean add? (quire help user shows each form)\n',
    });
    expect(token).toEqual({
      code: 2,
      out: '',
      err: 'quire token: unknown token command "revok"; did you mean revoke? (quire help token shows each form)\n',
    });
  });
});
