import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from './config/package-root.js';

const root = packageRoot();
const dir = mkdtempSync(join(tmpdir(), 'quire-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { version, bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  bin: { quire: string };
};

/** Runs `file args` (no shell) in `cwd`: its exit code and both outputs. */
function run(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: options.cwd, env: { ...process.env, ...options.env } }, (error, out, err) =>
      resolve({ code: error ? Number(error.code) : 0, out, err }),
    );
  });
}

describe('the quire command as npm installs it', () => {
  it('npx quire runs in the checkout (npm links the bin into its own cache)', async () => {
    // A cache of its own: npx links this package's bin there afresh, as on a first run.
    const result = await run('npx', ['--offline', '--yes', 'quire', '--version'], {
      cwd: root,
      env: { npm_config_cache: join(dir, 'npm-cache'), npm_config_update_notifier: 'false' },
    });
    expect(result).toMatchObject({ code: 0, out: `${version}\n` });
  }, 60_000);

  it('a global install of the checkout (what npm link does) puts quire on the PATH', async () => {
    // Into a prefix of its own, so the machine's global packages stay as they are.
    const prefix = join(dir, 'global');
    const install = await run(
      'npm',
      ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', root],
      {
        cwd: dir,
        env: { npm_config_cache: join(dir, 'npm-cache'), npm_config_update_notifier: 'false' },
      },
    );
    expect(install.code, install.err).toBe(0);
    const onPath = await run('quire', ['--version'], {
      cwd: dir,
      env: { PATH: `${join(prefix, 'bin')}:${process.env.PATH}` },
    });
    expect(onPath).toEqual({ code: 0, out: `${version}\n`, err: '' });
  }, 60_000);

  it('the built entry runs through a link too', async () => {
    // dist/server/cli.js must see that it is the script Node runs, under the link's name.
    symlinkSync(join(root, 'dist', 'server', 'cli.js'), join(dir, 'quire-built'));
    expect(await run(join(dir, 'quire-built'), ['--version'], { cwd: dir })).toEqual({
      code: 0,
      out: `${version}\n`,
      err: '',
    });
  });

  it('in a clone that was never built nor installed, says in one line what to run', async () => {
    const clone = join(dir, 'fresh-clone');
    mkdirSync(join(clone, 'scripts'), { recursive: true });
    writeFileSync(join(clone, 'package.json'), JSON.stringify({ name: 'quire', type: 'module' }));
    copyFileSync(join(root, bin.quire), join(clone, bin.quire));
    const result = await run(process.execPath, [join(clone, bin.quire), 'types'], { cwd: clone });
    expect(result).toEqual({
      code: 1,
      out: '',
      err: `quire: Quire is not built yet: run npm install, then npm run build, in ${clone}\n`,
    });
  });

  it('in a clone with its packages installed but never built, builds it once, keeping stdout for the answer', async () => {
    const clone = join(dir, 'unbuilt-clone');
    mkdirSync(join(clone, 'scripts'), { recursive: true });
    mkdirSync(join(clone, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(clone, 'package.json'), JSON.stringify({ name: 'quire', type: 'module' }));
    writeFileSync(join(clone, 'node_modules', '.bin', 'tsc'), '');
    copyFileSync(join(root, bin.quire), join(clone, bin.quire));
    // A stand-in for scripts/build.mjs: says it built, and writes an entry that says what it ran.
    writeFileSync(
      join(clone, 'scripts', 'build.mjs'),
      `import { mkdirSync, writeFileSync } from 'node:fs';
console.log('stand-in build ran');
mkdirSync('dist/server', { recursive: true });
writeFileSync('dist/server/cli.js', "export function runCommandLine(argv) { console.log('quire ran ' + argv.join(' ')); }");
`,
    );
    const first = await run(process.execPath, [join(clone, bin.quire), 'types', '--out', 'x.d.ts'], { cwd: dir });
    expect(first).toEqual({
      code: 0,
      out: 'quire ran types --out x.d.ts\n',
      err: 'quire: building Quire first (once; npm run build does the same)...\nstand-in build ran\n',
    });
    const second = await run(process.execPath, [join(clone, bin.quire), 'types'], { cwd: dir });
    expect(second).toEqual({ code: 0, out: 'quire ran types\n', err: '' });
  });
});
